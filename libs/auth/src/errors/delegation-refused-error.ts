/**
 * Why a downstream token could not be minted for reasons other than scope.
 * @public
 */
export type DelegationRefusal = 'deadline-passed' | 'chain-too-long';

/**
 * No downstream token: the caller's deadline has already passed, or the
 * delegation chain is longer than the platform allows. Not a credential
 * problem of the caller, so not an AuthError: the hop decides what to answer
 * (usually DEADLINE_EXCEEDED for the first).
 * @public
 */
export class DelegationRefusedError extends Error {
  override readonly name = 'DelegationRefusedError';

  constructor(
    readonly refusal: DelegationRefusal,
    message: string,
  ) {
    super(message);
  }
}
