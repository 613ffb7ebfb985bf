import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { JsonRpcError, type ParamViolation } from './json-rpc-error';
import type { JsonRpcMethodMetadata } from './json-rpc-method.decorator';
import { toParamViolations } from './validation-violations';

/**
 * Turns wire params into what the handler receives. With a DTO: positional arrays
 * are mapped onto named properties first, then the object is transformed without
 * implicit type conversion and validated strictly (unknown properties rejected).
 * Without a DTO the params pass through untouched.
 */
export async function bindParams(method: JsonRpcMethodMetadata, params: unknown): Promise<unknown> {
  if (!method.params) return params;
  const named = toNamedParams(method, params);
  const instance = plainToInstance(method.params, named);
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw JsonRpcError.invalidParams(toParamViolations(errors));
  return instance;
}

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
      violation(`[${names.length}]`, 'maxPositional', `${method.name} takes at most ${names.length} positional params (${names.join(', ')})`),
    ]);
  }
  const named: Record<string, unknown> = {};
  params.forEach((value, index) => (named[names[index]] = value));
  return named;
}

function violation(path: string, constraint: string, message: string): ParamViolation {
  return { path, constraints: { [constraint]: message } };
}
