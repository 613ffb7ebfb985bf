import { INSUFFICIENT_SCOPE, RpcError, UNAUTHENTICATED } from './rpc';

/** A failed call, said plainly; a refusal names the scopes the token lacks. Server text is rendered as text. */
export function ErrorNotice({ error, what }: { error: unknown; what: string }) {
  if (error instanceof RpcError && error.code === INSUFFICIENT_SCOPE && error.missingScopes.length === 0) {
    // Refused further on (e.g. by an MCP server), which says why in its own words.
    return (
      <div class="notice refusal" role="alert" data-testid="refusal">
        <strong>Refused:</strong> {what}: {error.reason ?? error.message}
      </div>
    );
  }
  if (error instanceof RpcError && error.code === INSUFFICIENT_SCOPE) {
    const missing = error.missingScopes;
    return (
      <div class="notice refusal" role="alert" data-testid="refusal">
        <strong>Refused:</strong> {what} needs the scope{missing.length === 1 ? '' : 's'}{' '}
        <code>{missing.join(' ')}</code>, which this token does not have. Sign in with a token that has{' '}
        {missing.length === 1 ? 'it' : 'them'}.
      </div>
    );
  }
  if (error instanceof RpcError && error.code === UNAUTHENTICATED) {
    return (
      <div class="notice refusal" role="alert" data-testid="refusal">
        <strong>Not signed in:</strong> the gateway did not accept the token ({error.message}). Sign out and sign in
        again.
      </div>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof RpcError ? ` (code ${error.code})` : '';
  return (
    <div class="notice error" role="alert">
      <strong>
        {what} failed{code}:
      </strong>{' '}
      {message}
    </div>
  );
}
