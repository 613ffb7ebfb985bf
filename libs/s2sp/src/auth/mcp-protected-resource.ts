import { isIssuerUrl, protectedResourceMetadataPath } from '@s2sp/auth/internal';
import {
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  S2SP_DATA_READ_SCOPE,
  type ProtectedResourceMetadata,
} from '@s2sp/auth';

/**
 * Caller authentication of an MCP server started by serveMcp (the module must import AuthModule).
 * @public
 */
export interface McpServerAuthOptions {
  /** This server's audience (AuthModule's); tokens must name it, or {@link McpServerAuthOptions.resource}, in `aud`. */
  audience: string;
  /**
   * The URL clients reach `/mcp` at, as an OAuth resource (RFC 8707, RFC 9728): published in the
   * Protected Resource Metadata and accepted as a token audience. Set it when clients reach the
   * server through a proxy or a public name. Default `http://<host>:<port>/mcp` as listened on.
   */
  resource?: string;
  /** Issuer URLs of the authorization servers clients get tokens from. Default: AuthModule's issuers that are http(s) URLs. */
  authorizationServers?: readonly string[];
  /**
   * Scopes clients are told to ask for (metadata `scopes_supported`, the 401 challenge's `scope`).
   * Default: every scope the tools require, plus `s2sp:data:read` when a resource tool issues
   * resource_urls and the data plane asks for bearer tokens.
   */
  scopesSupported?: readonly string[];
  /** Name shown by clients in the metadata. Default: the server's name. */
  resourceName?: string;
}

/** Stands for the default resource before the server listens: only its path, `/mcp`, is known. */
const LISTENING_RESOURCE = 'http://localhost/mcp';

/** Where the tools' scopes come from (the MCP strategy, once it is built). */
export interface ToolScopeSource {
  declaredScopes(): readonly string[];
  requiredScopesOf(toolName: string): readonly string[];
  /** Whether some tool issues resource_urls (the data plane's scope is then worth asking for). */
  issuesResources(): boolean;
}

/**
 * An HTTP MCP server as an OAuth protected resource: what its metadata document,
 * its challenges and its audience checks say. serveMcp builds it before the app
 * listens and binds it to the listening URL and the tools afterwards.
 */
export class McpProtectedResource {
  private listeningUrl?: string;
  private tools?: ToolScopeSource;

  constructor(
    private readonly options: McpServerAuthOptions & { resourceName: string },
    private readonly defaultAuthorizationServers: readonly string[],
    private readonly dataPlaneAsksForTokens: boolean,
  ) {
    // Configured values are checked before the server starts (the default resource is always valid).
    protectedResourceMetadata({
      resource: options.resource ?? LISTENING_RESOURCE,
      authorizationServers: this.authorizationServers(),
      scopesSupported: options.scopesSupported ?? [],
    });
  }

  bind(listeningUrl: string, tools: ToolScopeSource): void {
    this.listeningUrl = listeningUrl;
    this.tools = tools;
  }

  /** Where this server answers its metadata: the path of the configured resource, else `/mcp`'s. */
  get metadataPath(): string {
    return protectedResourceMetadataPath(this.options.resource ?? LISTENING_RESOURCE);
  }

  get audience(): string {
    return this.options.audience;
  }

  /** The configured resource, else the listening one (`localhost` for a wildcard address). */
  get resource(): string {
    if (this.options.resource !== undefined) return this.options.resource;
    if (this.listeningUrl === undefined) throw new Error('McpProtectedResource: not bound to a listening URL yet.');
    const url = new URL(this.listeningUrl);
    if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = 'localhost';
    return `${url.origin}/mcp`;
  }

  /** The audiences a token may name here: the service's and the resource URL. */
  audiences(): readonly string[] {
    return [this.options.audience, this.resource];
  }

  metadataUrl(): string {
    return protectedResourceMetadataUrl(this.resource);
  }

  scopesSupported(): readonly string[] {
    if (this.options.scopesSupported !== undefined) return this.options.scopesSupported;
    const scopes = new Set(this.tools?.declaredScopes() ?? []);
    if (this.dataPlaneAsksForTokens && this.tools?.issuesResources()) scopes.add(S2SP_DATA_READ_SCOPE);
    return [...scopes].sort();
  }

  requiredScopesOf(toolName: string): readonly string[] {
    return this.tools?.requiredScopesOf(toolName) ?? [];
  }

  document(): ProtectedResourceMetadata {
    return protectedResourceMetadata({
      resource: this.resource,
      authorizationServers: this.authorizationServers(),
      scopesSupported: this.scopesSupported(),
      resourceName: this.options.resourceName,
    });
  }

  private authorizationServers(): readonly string[] {
    return this.options.authorizationServers ?? this.defaultAuthorizationServers;
  }
}

/** The issuers that can be authorization servers a client discovers (http(s) URLs; not e.g. "s2sp-dev"). */
export function issuerUrls(issuers: readonly string[]): string[] {
  return issuers.filter(isIssuerUrl);
}
