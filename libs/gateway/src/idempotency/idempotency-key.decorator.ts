import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Name of the params member that makes a state-changing call safe to retry. */
export const IDEMPOTENCY_KEY_PARAM = 'idempotency_key';

/** An optional client-chosen idempotency key: 1-255 printable ASCII characters, e.g. a UUID. */
export function IdempotencyKey(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsString(),
    MaxLength(255),
    Matches(/^[\x21-\x7e]+$/, {
      message: `${IDEMPOTENCY_KEY_PARAM} must be 1-255 printable ASCII characters without spaces`,
    }),
  );
}
