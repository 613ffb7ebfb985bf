import type { ThrottlerStorage } from '@nestjs/throttler';

/**
 * What a throttler storage's `increment` answers (@nestjs/throttler does not export the type from its entry).
 * @public
 */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;
