import { applyDecorators } from '@nestjs/common';
import { ValidateIf, registerDecorator, type ValidationArguments } from 'class-validator';

/** The members of a plan step of which exactly one must be present (the PlanStep.kind oneof of agent.proto). */
export const STEP_KINDS = ['resource_call', 'filter', 'consumer_call'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

function presentKinds(step: object): StepKind[] {
  return STEP_KINDS.filter((kind) => (step as Record<string, unknown>)[kind] !== undefined);
}

/**
 * Marks one of the step kinds. The property is optional, but a step must have
 * exactly one kind: a step with none reports it on its first kind
 * (resource_call); a step with several reports it on each kind it has.
 */
export function StepKindMember(kind: StepKind): PropertyDecorator {
  const isFirst = kind === STEP_KINDS[0];
  return applyDecorators(
    ValidateIf((step: object) => presentKinds(step).includes(kind) || (isFirst && presentKinds(step).length === 0)),
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'exactlyOneStepKind',
        target: target.constructor,
        propertyName: String(propertyName),
        validator: {
          validate: (_value: unknown, args?: ValidationArguments) => presentKinds(args?.object ?? {}).length === 1,
          defaultMessage: (args?: ValidationArguments) => {
            const present = presentKinds(args?.object ?? {});
            const has = present.length === 0 ? 'it has none' : `it has ${present.join(' and ')}`;
            return `a plan step must have exactly one of ${STEP_KINDS.join(', ')}; ${has}`;
          },
        },
      }),
  );
}
