import { validate } from 'class-validator';
import { JsonRpcError, type ParamViolation } from './json-rpc-error';
import type { JsonRpcMethodMetadata } from './json-rpc-method.decorator';
import { toParamsInstance } from './params-instance';
import { ParamsValidationPlan } from './params-validation-plan';
import { toParamViolations } from './validation-violations';

/**
 * Turns wire params into what the handler receives. With a DTO: positional arrays
 * are mapped onto named properties first, then the object becomes a DTO instance
 * (no implicit type conversion) and is validated strictly (unknown properties rejected).
 * Without a DTO the params pass through untouched.
 */
export async function bindParams(method: JsonRpcMethodMetadata, params: unknown): Promise<unknown> {
  if (!method.params) return params;
  const named = toNamedParams(method, params);
  // Members named like Object.prototype properties (__proto__, constructor, ...) are refused by toParamsInstance.
  const instance = toParamsInstance(method.params, named);
  if (ParamsValidationPlan.of(method.params)?.accepts(instance)) return instance;
  const errors = await validate(instance, PARAMS_VALIDATOR_OPTIONS);
  if (errors.length > 0) throw JsonRpcError.invalidParams(toParamViolations(errors));
  return instance;
}

/** Strict: unknown members are errors, not silently stripped. ParamsValidationPlan mirrors these. */
export const PARAMS_VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
} as const;

function toNamedParams(method: JsonRpcMethodMetadata, params: unknown): Record<string, unknown> {
  if (params === undefined) return {};
  if (!Array.isArray(params)) return { ...(params as Record<string, unknown>) };
  const positional = method.positional;
  if (!positional) {
    throw JsonRpcError.invalidParams([
      violation('', 'paramStructure', `${method.name} takes named params: send an object, not an array`),
    ]);
  }
  if (!Array.isArray(positional)) return { [(positional as { rest: string }).rest]: params };
  const names = positional as readonly string[];
  if (params.length > names.length) {
    throw JsonRpcError.invalidParams([
      violation(
        `[${names.length}]`,
        'maxPositional',
        `${method.name} takes at most ${names.length} positional params (${names.join(', ')})`,
      ),
    ]);
  }
  const named: Record<string, unknown> = {};
  params.forEach((value, index) => (named[names[index]] = value));
  return named;
}

function violation(path: string, constraint: string, message: string): ParamViolation {
  return { path, constraints: { [constraint]: message } };
}
