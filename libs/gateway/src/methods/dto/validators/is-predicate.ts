import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { PredicateSyntaxError } from '@s2sp/contracts';
import { parsePredicate } from '@s2sp/contracts/internal';

/** A FILTER step's row predicate (the small language of FilterStep in agent.proto), checked with parsePredicate. */
export function IsPredicate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isPredicate',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => predicateProblem(value) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'predicate'} is not a valid predicate: ${predicateProblem(args?.value) ?? 'invalid'}`,
      },
    });
}

function predicateProblem(value: unknown): string | undefined {
  try {
    parsePredicate(value);
    return undefined;
  } catch (error) {
    if (error instanceof PredicateSyntaxError) return error.message;
    throw error;
  }
}
