import { SetMetadata } from '@nestjs/common';

/** @public */
export const MUTATION_CLASSES = ['READ_ONLY', 'IDEMPOTENT_WRITE', 'NON_IDEMPOTENT_WRITE', 'DESTRUCTIVE'] as const;

/**
 * How an operation changes state; the last two (NON_IDEMPOTENT_WRITE, DESTRUCTIVE) need a human approval.
 * @public
 */
export type MutationClass = (typeof MUTATION_CLASSES)[number];

export const MUTATION_CLASS_METADATA = 's2sp:auth:mutation-class';

/** @public */
export function mutationClassDecorator(mutationClass: MutationClass): MethodDecorator & ClassDecorator {
  if (!isMutationClass(mutationClass))
    throw new TypeError(`@MutationClass(): unknown mutation class ${JSON.stringify(mutationClass)}`);
  return SetMetadata(MUTATION_CLASS_METADATA, mutationClass);
}

/**
 * `@MutationClass(MutationClass.DESTRUCTIVE)` on a handler (or its class) declares
 * what it does to state; the values are also `MutationClass.READ_ONLY`, etc.
 * Handlers without one are treated as READ_ONLY unless the module says otherwise.
 * @public
 */
export const MutationClass = Object.assign(mutationClassDecorator, {
  READ_ONLY: 'READ_ONLY',
  IDEMPOTENT_WRITE: 'IDEMPOTENT_WRITE',
  NON_IDEMPOTENT_WRITE: 'NON_IDEMPOTENT_WRITE',
  DESTRUCTIVE: 'DESTRUCTIVE',
} as const satisfies Record<MutationClass, MutationClass>);

export function isMutationClass(value: unknown): value is MutationClass {
  return (MUTATION_CLASSES as readonly unknown[]).includes(value);
}

/** NON_IDEMPOTENT_WRITE and DESTRUCTIVE go through the approval step. */
export function requiresApproval(mutationClass: MutationClass): boolean {
  return mutationClass === 'NON_IDEMPOTENT_WRITE' || mutationClass === 'DESTRUCTIVE';
}

/**
 * The s2sp.v1 proto enum (`MUTATION_CLASS_READ_ONLY`, ...) to a MutationClass.
 * UNSPECIFIED or unknown values fail closed as DESTRUCTIVE.
 * @public
 */
export function mutationClassFromProto(value: string | number | undefined | null): MutationClass {
  const byNumber: Record<number, MutationClass> = {
    1: 'READ_ONLY',
    2: 'IDEMPOTENT_WRITE',
    3: 'NON_IDEMPOTENT_WRITE',
    4: 'DESTRUCTIVE',
  };
  if (typeof value === 'number') return byNumber[value] ?? 'DESTRUCTIVE';
  const name = typeof value === 'string' ? value.replace(/^MUTATION_CLASS_/, '') : '';
  return isMutationClass(name) ? name : 'DESTRUCTIVE';
}
