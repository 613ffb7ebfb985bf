import type { IncomingMessage, ServerResponse } from 'node:http';
import { isValidScope } from '../identity/scopes';

/**
 * What a protected resource (an MCP server's `/mcp`) tells OAuth clients about
 * itself: the OAuth 2.0 Protected Resource Metadata document of RFC 9728,
 * which MCP clients read to find where to get a token (see docs/auth.md).
 * @public
 */
export interface ProtectedResourceOptions {
  /**
   * The resource identifier: the absolute URL clients call (e.g. `https://weather.example.com/mcp`).
   * Tokens for it carry it as their audience (RFC 8707 resource indicators).
   */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for it (may be empty). */
  authorizationServers: readonly string[];
  /** Scopes a client may ask for (and, unless `challengeScopes` says otherwise, asks for at first). */
  scopesSupported: readonly string[];
  /** Human-readable name shown by clients. */
  resourceName?: string;
  /** URL of documentation for developers. */
  resourceDocumentation?: string;
}

/**
 * The metadata document (RFC 9728 field names).
 * @public
 */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported: ['header'];
  resource_name?: string;
  resource_documentation?: string;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * Where the metadata of `resource` is published: the well-known path inserted
 * before the resource's own path (`https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`).
 * @public
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}${WELL_KNOWN}${path}`;
}

/** The path part of {@link protectedResourceMetadataUrl}, where this server answers it. */
export function protectedResourceMetadataPath(resource: string): string {
  return new URL(protectedResourceMetadataUrl(resource)).pathname;
}

/**
 * Checks the options (naming the first wrong one) and builds the document.
 * @public
 */
export function protectedResourceMetadata(options: ProtectedResourceOptions): ProtectedResourceMetadata {
  const fail = (name: string, why: string): never => {
    throw new RangeError(`Protected resource option ${name} ${why}`);
  };
  if (!isHttpUrl(options.resource) || new URL(options.resource).hash !== '')
    fail('resource', `must be an absolute http(s) URL without a fragment; got ${JSON.stringify(options.resource)}`);
  for (const server of options.authorizationServers) {
    if (!isIssuerUrl(server))
      fail(
        'authorizationServers',
        `must hold issuer URLs (http(s), no query or fragment); got ${JSON.stringify(server)}`,
      );
  }
  for (const scope of options.scopesSupported) {
    if (!isValidScope(scope))
      fail('scopesSupported', `must hold OAuth scope names (no spaces or quotes); got ${JSON.stringify(scope)}`);
  }
  return {
    resource: options.resource,
    ...(options.authorizationServers.length > 0 ? { authorization_servers: [...options.authorizationServers] } : {}),
    ...(options.scopesSupported.length > 0 ? { scopes_supported: [...options.scopesSupported] } : {}),
    bearer_methods_supported: ['header'],
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
    ...(options.resourceDocumentation === undefined ? {} : { resource_documentation: options.resourceDocumentation }),
  };
}

/**
 * Serves the metadata document (GET or HEAD, `Access-Control-Allow-Origin: *`:
 * browser-based MCP clients read it too; it holds nothing secret). Mount it at
 * {@link protectedResourceMetadataPath} with `app.use(path, …)`, before any
 * authentication: clients read it without a token. `document` is called per
 * request, so scopes of tools registered at run time show up.
 * @public
 */
export function protectedResourceMetadataMiddleware(document: () => ProtectedResourceMetadata) {
  return (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void => {
    if (request.url !== undefined && request.url !== '/' && !request.url.startsWith('/?')) {
      next();
      return;
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-max-age': '86400',
      });
      response.end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD, OPTIONS' });
      response.end();
      return;
    }
    const text = JSON.stringify(document());
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=300',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  };
}

/** An OAuth issuer identifier: an http(s) URL without query or fragment. */
export function isIssuerUrl(value: unknown): value is string {
  return isHttpUrl(value) && new URL(value).search === '' && new URL(value).hash === '';
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:';
}
