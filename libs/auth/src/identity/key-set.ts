import { readFile, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { jose } from '../lazy-jose';
import type { DevKeyStore } from '../keys/dev-key-store';

/**
 * Where a verifier finds the public keys it trusts.
 * @public
 */
export type KeySetSource =
  /** The embedded dev key (generated on first use, shared by every process on the machine). */
  | { kind: 'dev'; store: DevKeyStore }
  /** A JWKS document in a file (re-read when it changes, for key rotation). */
  | { kind: 'jwks-file'; path: string }
  /** A JWKS endpoint (e.g. the IdP's or the platform's `/.well-known/jwks.json`). */
  | {
      kind: 'jwks-url';
      url: string;
      /** Timeout of one JWKS fetch, ms (default 5000). */
      timeoutMs?: number;
      /** Least time between two refetches on an unknown `kid`, ms (default 30000). */
      cooldownMs?: number;
      /** How long a fetched JWKS is used before it is refetched, ms (default 600000). */
      cacheMaxAgeMs?: number;
      /** Allows plain http to hosts other than loopback (default false: only https, or http to 127.0.0.1/::1/localhost). */
      allowInsecureHttp?: boolean;
    }
  /** A JWKS given in memory. */
  | { kind: 'jwks'; jwks: JSONWebKeySet };

/**
 * Key lookup for jose's jwtVerify, plus a way to pick up rotated keys.
 * @public
 */
export interface KeySet {
  readonly getKey: JWTVerifyGetKey;
  /**
   * Reloads the keys after a token named an unknown `kid`. Resolves true when
   * something new may have been loaded (the caller then retries once).
   */
  refresh(): Promise<boolean>;
}

const LOCAL_REFRESH_COOLDOWN_MS = 5_000;

/** `now` is the clock of the local sources' refresh cooldown (tests pass their own). */
export function createKeySet(source: KeySetSource, now: () => number = Date.now): KeySet {
  switch (source.kind) {
    case 'jwks':
      return new LocalKeySet(
        async () => source.jwks,
        async () => false,
        now,
      );
    case 'dev':
      return new LocalKeySet(
        () => source.store.getPublicJwks(),
        async () => {
          source.store.reload();
          return true;
        },
        now,
      );
    case 'jwks-file': {
      let mtime = -1;
      const read = async (): Promise<JSONWebKeySet> => {
        mtime = (await stat(source.path)).mtimeMs;
        return parseJwks(await readFile(source.path, 'utf8'), source.path);
      };
      return new LocalKeySet(read, async () => (await stat(source.path)).mtimeMs !== mtime, now);
    }
    case 'jwks-url':
      return remoteKeySet(source);
  }
}

function parseJwks(text: string, origin: string): JSONWebKeySet {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${origin} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || !Array.isArray((value as JSONWebKeySet).keys)) {
    throw new Error(`${origin} is not a JWKS ({"keys": [...]})`);
  }
  const keys = (value as JSONWebKeySet).keys;
  if (keys.some((key) => typeof key !== 'object' || key === null || 'd' in key || 'k' in key)) {
    throw new Error(`${origin} must hold public asymmetric keys only (no "d", no symmetric "k")`);
  }
  return value as JSONWebKeySet;
}

/** A JWKS held in memory, loaded lazily and reloaded (at most every few seconds) on an unknown kid. */
class LocalKeySet implements KeySet {
  private current?: Promise<JWTVerifyGetKey>;
  private lastRefresh = 0;

  constructor(
    private readonly load: () => Promise<JSONWebKeySet>,
    private readonly changed: () => Promise<boolean>,
    private readonly now: () => number,
  ) {}

  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    const getKey = await this.resolve();
    return getKey(header, token);
  };

  async refresh(): Promise<boolean> {
    const now = this.now();
    if (now - this.lastRefresh < LOCAL_REFRESH_COOLDOWN_MS) return false;
    this.lastRefresh = now;
    if (!(await this.changed().catch(() => false))) return false;
    this.current = undefined;
    return true;
  }

  private resolve(): Promise<JWTVerifyGetKey> {
    this.current ??= this.load().then(
      (jwks) => jose().createLocalJWKSet(jwks),
      (error: unknown) => {
        this.current = undefined;
        throw error;
      },
    );
    return this.current;
  }
}

function remoteKeySet(source: Extract<KeySetSource, { kind: 'jwks-url' }>): KeySet {
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw new Error(`JWKS URL ${JSON.stringify(source.url)} is not a valid URL`);
  }
  if (
    url.protocol !== 'https:' &&
    !(url.protocol === 'http:' && (isLoopback(url.hostname) || source.allowInsecureHttp))
  ) {
    throw new Error(`JWKS URL must use https (plain http only to a loopback host), got ${url.protocol}//${url.host}`);
  }
  const remote = jose().createRemoteJWKSet(url, {
    timeoutDuration: source.timeoutMs ?? 5_000,
    cooldownDuration: source.cooldownMs ?? 30_000,
    cacheMaxAge: source.cacheMaxAgeMs ?? 600_000,
  });
  // jose refetches by itself when a token names an unknown kid (after the cooldown).
  return { getKey: remote, refresh: async () => false };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
