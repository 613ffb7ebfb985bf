import type { AddressInfo } from 'node:net';

/**
 * One allowed `Host`: a hostname (lower case, IPv6 in brackets) and a port;
 * without a port it matches the hostname on any port.
 * @public
 */
export interface AllowedHost {
  hostname: string;
  port?: string;
}

/**
 * `'*'`: any value is accepted (the check is off).
 * @public
 */
export type AllowList<T> = readonly T[] | '*';

/**
 * Which check refused a request, and a message for the caller that names the setting to change.
 * @public
 */
export interface HostRefusal {
  check: 'host' | 'origin';
  message: string;
}

/**
 * Where a refusal tells the operator to look: the option and environment variable of each list.
 * @public
 */
export interface HostPolicySettings {
  hosts: string;
  origins: string;
}

const S2SP_SETTINGS: HostPolicySettings = {
  hosts: 'allowedHosts / S2SP_ALLOWED_HOSTS',
  origins: 'allowedOrigins / S2SP_ALLOWED_ORIGINS',
};

/**
 * How many distinct allowed `Host` values a policy remembers. Clients send the same few
 * spellings on every request; past this, values are checked each time without being kept.
 */
const REMEMBERED_HOSTS = 32;

/** Names a server bound to a loopback address answers to, on its bound port. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Parses an allowedHosts entry: `host`, `host:port`, `[::1]:3101`, or `*`.
 * Throws a readable error naming `owner` and `option` on anything else.
 */
export function parseAllowedHost(entry: string, option = 'allowedHosts', owner = 'S2spModule'): AllowedHost {
  const trimmed = typeof entry === 'string' ? entry.trim() : '';
  const url = authorityUrl(trimmed);
  if (!url || url.username || url.password || url.pathname !== '/' || url.search || url.hash || trimmed.includes('/')) {
    throw new Error(
      `${owner}: ${option} entry ${JSON.stringify(entry)} is not a host name with an optional port (e.g. "localhost", "api.example.com:8443").`,
    );
  }
  // URL drops a scheme-default port (`:80`); an entry that names one still means that port only.
  const port = /:(\d+)$/.exec(trimmed)?.[1];
  return port === undefined ? { hostname: url.hostname } : { hostname: url.hostname, port: String(Number(port)) };
}

/** Parses an allowedOrigins entry (`scheme://host[:port]`, http or https) into its serialized origin. */
export function parseAllowedOrigin(entry: string, option = 'allowedOrigins', owner = 'S2spModule'): string {
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    url.username
  ) {
    throw new Error(
      `${owner}: ${option} entry ${JSON.stringify(entry)} is not an http(s) origin such as "https://app.example.com".`,
    );
  }
  return url.origin;
}

/**
 * The hosts a server answers to by default: the loopback names on the bound
 * port when it is bound to a loopback address, and the host of its public URL
 * when one is configured. Empty when neither applies (e.g. bound to 0.0.0.0
 * without a public URL).
 * @internal
 */
export function defaultAllowedHosts(
  bound: AddressInfo | string | null | undefined,
  publicBaseUrl: (() => string) | undefined,
): AllowedHost[] {
  const hosts: AllowedHost[] = [];
  if (bound && typeof bound === 'object' && isLoopbackAddress(bound.address)) {
    for (const hostname of LOOPBACK_NAMES) hosts.push({ hostname, port: String(bound.port) });
  }
  const publicUrl = readPublicUrl(publicBaseUrl);
  if (publicUrl) hosts.push({ hostname: publicUrl.hostname, port: publicUrl.port || defaultPort(publicUrl.protocol) });
  return hosts;
}

/** @internal */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address === 'localhost' || /^127\./.test(address) || /^::ffff:127\./i.test(address);
}

/**
 * DNS-rebinding protection of a server's HTTP endpoints: the request's `Host`
 * must be an allowed host, and an `Origin`, when the request has one (browsers
 * send it; server-to-server clients and curl do not), an allowed origin. By
 * default the allowed origins are the http(s) origins of the allowed hosts.
 * @public
 */
export class RequestHostPolicy {
  /**
   * `Host` values (as sent) found allowed by `hosts`, so that the usual request is not parsed
   * again: a URL parse per request costs more than the rest of the check.
   */
  private allowedHostValues: { hosts: readonly AllowedHost[]; values: Set<string> } | undefined;

  constructor(
    private readonly hosts: () => AllowList<AllowedHost>,
    private readonly origins: AllowList<string> | undefined,
    private readonly settings: HostPolicySettings = S2SP_SETTINGS,
  ) {}

  /** Why the request is refused, or undefined when it may proceed. */
  refusal(hostHeader: string | undefined, originHeader: string | undefined): HostRefusal | undefined {
    const hosts = this.hosts();
    if (hosts !== '*') {
      const refusal = this.hostRefusal(hosts, hostHeader);
      if (refusal) return refusal;
    }
    if (originHeader === undefined) return undefined;
    let origin: URL | undefined;
    try {
      origin = new URL(originHeader);
    } catch {
      origin = undefined;
    }
    if (!origin || (origin.protocol !== 'http:' && origin.protocol !== 'https:')) {
      return { check: 'origin', message: 'Forbidden: the Origin header is not an http(s) origin.' };
    }
    if (!this.originAllowed(origin, hosts)) {
      return {
        check: 'origin',
        message: `Forbidden: Origin "${origin.origin}" is not allowed (DNS rebinding protection; see ${this.settings.origins}).`,
      };
    }
    return undefined;
  }

  private hostRefusal(hosts: readonly AllowedHost[], hostHeader: string | undefined): HostRefusal | undefined {
    if (this.allowedHostValues?.hosts !== hosts) this.allowedHostValues = { hosts, values: new Set() };
    const remembered = this.allowedHostValues.values;
    if (hostHeader === undefined) return noValidHost();
    if (remembered.has(hostHeader)) return undefined;
    const host = authorityUrl(hostHeader.trim());
    if (!host) return noValidHost();
    if (!hosts.some((allowed) => hostMatches(allowed, host.hostname, host.port))) {
      return {
        check: 'host',
        message: `Forbidden: Host "${host.host}" is not allowed (DNS rebinding protection; see ${this.settings.hosts}).`,
      };
    }
    if (remembered.size < REMEMBERED_HOSTS) remembered.add(hostHeader);
    return undefined;
  }

  private originAllowed(origin: URL, hosts: AllowList<AllowedHost>): boolean {
    if (this.origins === '*') return true;
    if (this.origins !== undefined) return this.origins.includes(origin.origin);
    // No host to compare with (any Host accepted): no browser origin is trusted by default.
    if (hosts === '*') return false;
    const port = origin.port || defaultPort(origin.protocol);
    return hosts.some((allowed) => hostMatches(allowed, origin.hostname, port));
  }
}

function noValidHost(): HostRefusal {
  return { check: 'host', message: 'Forbidden: the request has no valid Host header.' };
}

/**
 * Validates configured allowlists: each must be a non-empty list of entries,
 * or `['*']` alone; throws naming `owner` and the option otherwise.
 * @internal
 */
export function resolveHostAllowLists(
  owner: string,
  options: { allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] },
): { allowedHosts?: AllowList<AllowedHost>; allowedOrigins?: AllowList<string> } {
  return {
    ...(options.allowedHosts === undefined
      ? {}
      : { allowedHosts: allowList(owner, 'allowedHosts', options.allowedHosts, parseAllowedHost) }),
    ...(options.allowedOrigins === undefined
      ? {}
      : { allowedOrigins: allowList(owner, 'allowedOrigins', options.allowedOrigins, parseAllowedOrigin) }),
  };
}

function allowList<T>(
  owner: string,
  name: string,
  entries: unknown,
  parse: (entry: string, option: string, owner: string) => T,
): AllowList<T> {
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new Error(`${owner}: ${name} must be a non-empty list (use ["*"] to allow any value).`);
  }
  if (entries.includes('*')) {
    if (entries.length > 1)
      throw new Error(`${owner}: ${name} lists "*" together with other entries; "*" alone allows any value.`);
    return '*';
  }
  return entries.map((entry) => parse(entry as string, name, owner));
}

function hostMatches(allowed: AllowedHost, hostname: string, port: string): boolean {
  if (allowed.hostname !== hostname) return false;
  if (allowed.port === undefined) return true;
  // A Host header without a port names the scheme's default one, which this server cannot tell apart.
  return port === '' ? allowed.port === '80' || allowed.port === '443' : allowed.port === port;
}

/** `host[:port]` parsed as a URL authority (lower-cased, IPv6 bracketed), or undefined. */
function authorityUrl(authority: string): URL | undefined {
  if (authority === '' || /[\s/\\?#@]/.test(authority)) return undefined;
  try {
    return new URL(`http://${authority}`);
  } catch {
    return undefined;
  }
}

function readPublicUrl(publicBaseUrl: (() => string) | undefined): URL | undefined {
  if (!publicBaseUrl) return undefined;
  try {
    return new URL(publicBaseUrl());
  } catch {
    // Not configured (yet): only the loopback defaults apply.
    return undefined;
  }
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}
