// The user agent of an OAuth authorization code flow: follows the authorization server's
// redirects (keeping its cookies) until it is sent back to the client's redirect URI.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

const MAX_REDIRECTS = 20;

/** Follows `authorizationUrl` to the redirect back to `redirectUri`; answers its `code`. */
export async function authorizeInBrowser(authorizationUrl: URL, redirectUri: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl.href;
  for (let hop = 0; hop < MAX_REDIRECTS; hop += 1) {
    if (url.startsWith(redirectUri)) {
      const back = new URL(url);
      const code = back.searchParams.get('code');
      if (!code) throw new Error(`the authorization server refused: ${back.search}`);
      return code;
    }
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired) cookies.delete(name);
      else cookies.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`the authorization server answered ${response.status}: ${await response.text()}`);
    }
    await response.body?.cancel();
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}

/**
 * The MCP SDK's OAuth client provider, kept in memory: registers dynamically, and its
 * "redirect to the authorization server" runs {@link authorizeInBrowser}, leaving the code
 * for the caller to hand to the transport's `finishAuth`.
 */
export class InMemoryOAuthClient implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  /** Authorization URLs visited, in order. */
  readonly authorizations: URL[] = [];
  private client?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';
  private code?: string;

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 's2sp oauth discovery test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.client = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizations.push(authorizationUrl);
    this.code = await authorizeInBrowser(authorizationUrl, this.redirectUrl);
  }

  /** The code of the last authorization (once). */
  takeCode(): string {
    const code = this.code;
    if (!code) throw new Error('no authorization happened');
    this.code = undefined;
    return code;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}
