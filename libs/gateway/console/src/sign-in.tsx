import { useEffect, useState } from 'preact/hooks';

/** Every scope of the README's quick start: the platform's methods, the example tools and the resource servers' activity. */
const ALL_SCOPES =
  'tools:list tools:call resources:read tasks:submit tasks:read tasks:cancel weather:read stats:chart s2sp:data:read s2sp:activity:read';

interface Settings {
  devTokens: boolean;
}

/** Paste a bearer token, or (dev mode only) mint one for a subject and scopes. The token stays in memory. */
export function SignIn({ onToken }: { onToken: (token: string, subject: string) => void }) {
  const [pasted, setPasted] = useState('');
  const [settings, setSettings] = useState<Settings>({ devTokens: false });
  const [subject, setSubject] = useState('alice');
  const [scopes, setScopes] = useState(ALL_SCOPES);
  const [error, setError] = useState<string>();

  useEffect(() => {
    fetch('/console/api/settings')
      .then((response) => response.json() as Promise<Settings>)
      .then((value) => setSettings({ devTokens: value.devTokens === true }))
      .catch(() => setSettings({ devTokens: false }));
  }, []);

  const usePasted = (event: Event) => {
    event.preventDefault();
    const token = pasted.trim().replace(/^Bearer\s+/i, '');
    if (token === '') return setError('Paste a token first.');
    onToken(token, subjectOf(token));
  };

  const mint = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const response = await fetch('/console/api/dev-token', {
        method: 'POST',
        // The gateway mints only for the console's own requests (DevTokenRequestGuard).
        headers: { 'content-type': 'application/json', 'x-s2sp-console': '1' },
        body: JSON.stringify({ subject: subject.trim(), scopes: scopes.split(/\s+/).filter(Boolean) }),
      });
      const body = (await response.json()) as { token?: string; message?: string };
      if (!response.ok || !body.token) throw new Error(body.message ?? `HTTP ${response.status}`);
      onToken(body.token, subject.trim());
    } catch (failure) {
      setError(`Could not mint a dev token: ${failure instanceof Error ? failure.message : String(failure)}`);
    }
  };

  return (
    <section class="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to the S2SP console</h1>
      <p>
        The console calls the gateway's JSON-RPC methods with your token, like any client: it shows only what the token
        may see. The token is kept in this page's memory only.
      </p>
      <form onSubmit={usePasted}>
        <label for="token">Bearer token</label>
        <textarea
          id="token"
          rows={4}
          value={pasted}
          onInput={(event) => setPasted(event.currentTarget.value)}
          placeholder="npm run -s token -- --sub alice --scopes …"
        />
        <button type="submit">Sign in</button>
      </form>
      {settings.devTokens && (
        <form onSubmit={mint} class="dev-mint" aria-labelledby="dev-mint-title">
          <h2 id="dev-mint-title">Development: mint a token</h2>
          <p>Available because the gateway runs with dev tokens on (never under NODE_ENV=production).</p>
          <label for="dev-subject">Subject</label>
          <input id="dev-subject" value={subject} onInput={(event) => setSubject(event.currentTarget.value)} />
          <label for="dev-scopes">Scopes (space-separated)</label>
          <input id="dev-scopes" value={scopes} onInput={(event) => setScopes(event.currentTarget.value)} />
          <button type="submit">Mint dev token and sign in</button>
        </form>
      )}
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}

/** The `sub` of a JWT, for display only (the gateway verifies the token; this does not). */
function subjectOf(token: string): string {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof payload.sub === 'string' ? payload.sub : 'unknown';
  } catch {
    return 'unknown';
  }
}
