// A real OAuth 2.1 / OpenID authorization server for tests: oidc-provider (a certified
// implementation) with dynamic client registration, PKCE, RFC 8707 resource indicators and
// JWT access tokens whose audience is the resource. Its login and consent pages are replaced
// by a user who signs in as `subject` and grants what was asked.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

export interface AuthorizationServer {
  issuer: string;
  jwksUrl: string;
  /** The scopes granted so far, one entry per consent (what the user agreed to). */
  consents: string[][];
  /** Limits the scopes issued for any resource from now on (default: all of `scopes`). */
  issueOnly(scopes: readonly string[]): void;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Scopes the resource servers accept (the provider refuses others). */
  scopes: readonly string[];
  /** Who signs in. */
  subject: string;
}

interface InteractionDetails {
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> } };
  params: { client_id: string };
  session?: { accountId: string };
  grantId?: string;
}

interface Grant {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

interface Provider {
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
  interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(
    request: IncomingMessage,
    response: ServerResponse,
    result: Record<string, unknown>,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
}

export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  // oidc-provider is an ES module.
  // @ts-expect-error -- oidc-provider ships no type declarations; the few members used are typed below.
  const { default: ProviderClass } = (await import('oidc-provider')) as unknown as {
    default: new (issuer: string, configuration: Record<string, unknown>) => Provider;
  };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-as-key' };
  const consents: string[][] = [];
  let issued = options.scopes;
  const provider = new ProviderClass(issuer, {
    jwks: { keys: [signingKey] },
    cookies: { keys: ['oidc-test-cookie-key'] },
    scopes: ['openid', 'offline_access', ...options.scopes],
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, resource: string) => ({
          scope: issued.join(' '),
          audience: resource,
          accessTokenTTL: 600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    findAccount: (_context: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  const handle = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.startsWith('/interaction/')) {
      handle(request, response);
      return;
    }
    interact(provider, request, response, options.subject, consents).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    consents,
    issueOnly: (scopes) => {
      issued = scopes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The user's side of the login and consent prompts. */
async function interact(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
  subject: string,
  consents: string[][],
): Promise<void> {
  const interaction = await provider.interactionDetails(request, response);
  if (interaction.prompt.name === 'login') {
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: subject } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const grant = interaction.grantId
    ? ((await provider.Grant.find(interaction.grantId)) as Grant)
    : new provider.Grant({ accountId: subject, clientId: interaction.params.client_id });
  const { missingOIDCScope, missingResourceScopes } = interaction.prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  const granted: string[] = [];
  for (const [resource, asked] of Object.entries(missingResourceScopes ?? {})) {
    granted.push(...asked);
    grant.addResourceScope(resource, asked.join(' '));
  }
  consents.push(granted);
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
