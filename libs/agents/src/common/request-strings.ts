import { InvalidRequestError } from './request-errors';

/** Longest name (tool, server, …) a request may carry. */
export const MAX_NAME_LENGTH = 256;

/** A string field of a request: bounded in length, control characters refused. */
export function boundedString(value: string | undefined, field: string, maxLength = MAX_NAME_LENGTH): string {
  const text = value ?? '';
  if (text.length > maxLength) throw new InvalidRequestError(field, `must be at most ${maxLength} characters`);
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new InvalidRequestError(field, 'must not contain control characters');
  return text;
}

/** {@link boundedString}, and not empty. */
export function requiredString(value: string | undefined, field: string, maxLength?: number): string {
  const text = boundedString(value, field, maxLength);
  if (text === '') throw new InvalidRequestError(field, 'is required');
  return text;
}
