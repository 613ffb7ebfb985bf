import type { ValidationError } from 'class-validator';
import type { ParamViolation } from './json-rpc-error';

/** Flattens class-validator's error tree into one entry per failing field, with dotted/indexed paths. */
export function toParamViolations(errors: ValidationError[], parentPath = ''): ParamViolation[] {
  const violations: ParamViolation[] = [];
  for (const error of errors) {
    const path = joinPath(parentPath, error.property);
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      violations.push({ path, constraints: { ...error.constraints } });
    }
    if (error.children?.length) violations.push(...toParamViolations(error.children, path));
  }
  return violations;
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}
