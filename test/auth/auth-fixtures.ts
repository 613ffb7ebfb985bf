import { createHmac } from 'node:crypto';
import {
  base64url,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
} from 'jose';
import {
  DevKeyStore,
  JwtTokenVerifier,
  TokenMinter,
  type CallerIdentity,
  type KeySetSource,
  type SigningKey,
} from '../../libs/auth/src';
import { publicJwkOf } from '../../libs/auth/src/keys/signing-key';
import { tempDir as makeTempDir } from '../support/temp-dir';

export function tempDir(prefix = 's2sp-auth-'): { path: string; remove(): void } {
  return makeTempDir(prefix);
}

export interface DevSetup {
  dir: { path: string; remove(): void };
  store: DevKeyStore;
  minter: TokenMinter;
  verifier(audience: string | string[], options?: { clockToleranceSeconds?: number }): JwtTokenVerifier;
  /** A verified identity for `subject` with `scopes`, as `audience` sees it. */
  identity(subject: string, scopes: string[], audience?: string, ttlSeconds?: number): Promise<CallerIdentity>;
}

export async function devSetup(): Promise<DevSetup> {
  const dir = tempDir();
  const store = new DevKeyStore({ dataDir: dir.path });
  const minter = new TokenMinter({ issuer: store.issuer, signingKey: store });
  const verifier = (audience: string | string[], options: { clockToleranceSeconds?: number } = {}) =>
    new JwtTokenVerifier({ audience, issuer: store.issuer, keys: { kind: 'dev', store }, ...options });
  return {
    dir,
    store,
    minter,
    verifier,
    identity: async (subject, scopes, audience = 'gateway', ttlSeconds = 3600) =>
      verifier(audience).verify(await minter.mint({ subject, scopes, audience, ttlSeconds })),
  };
}

/** A key pair nobody trusts (or, with `kid`, one impersonating a trusted key id). */
export async function foreignKey(
  alg: 'ES256' | 'RS256' = 'ES256',
  kid?: string,
): Promise<SigningKey & { publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const id = kid ?? (await calculateJwkThumbprint(publicJwk));
  return { kid: id, alg, privateKey, publicJwk: { ...publicJwk, kid: id, alg, use: 'sig' } };
}

export function jwksOf(...keys: Array<{ publicJwk: JWK }>): JSONWebKeySet {
  return { keys: keys.map((key) => publicJwkOf(key.publicJwk)) };
}

export interface RawClaims extends JWTPayload {
  [claim: string]: unknown;
}

/** Signs arbitrary claims (nothing defaulted), for building bad tokens. */
export async function signRaw(
  key: SigningKey,
  claims: RawClaims,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Claims of a token that is fine in every respect (for `audience`, from the dev issuer). */
export function goodClaims(audience = 'gateway', overrides: RawClaims = {}): RawClaims {
  const now = nowSeconds();
  return { iss: 's2sp-dev', sub: 'alice', aud: audience, iat: now, exp: now + 600, scope: 'a b c', ...overrides };
}

/** `alg: none`: no signature at all. */
export function unsecuredToken(claims: RawClaims): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

/** The classic algorithm-confusion forgery: HS256 with the verifier's public key as the HMAC secret. */
export function hs256WithPublicKey(publicJwk: JWK, claims: RawClaims, kid?: string): string {
  return hs256WithSecret(JSON.stringify(publicJwk), claims, kid);
}

/** An HS256 token with any secret (the public key in some encoding, for the forgeries above). */
export function hs256WithSecret(secret: string | Uint8Array, claims: RawClaims, kid?: string): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  const signingInput = `${encode({ alg: 'HS256', typ: 'JWT', ...(kid ? { kid } : {}) })}.${encode(claims)}`;
  const signature = createHmac('sha256', secret).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

export function randomSubset<T>(random: () => number, items: readonly T[], probability = 0.5): T[] {
  return items.filter(() => random() < probability);
}

export type { KeySetSource };
