import type { CryptoKey, JWK, KeyObject } from 'jose';
import { jose } from '../lazy-jose';
import { readPrivateFile } from './private-file';

/**
 * The only algorithms the platform signs and accepts: RS256, and ES256 where a compact key is wanted.
 * @public
 */
export const SIGNING_ALGORITHMS = ['RS256', 'ES256'] as const;
/** @public */
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export function isSigningAlgorithm(alg: unknown): alg is SigningAlgorithm {
  return (SIGNING_ALGORITHMS as readonly unknown[]).includes(alg);
}

/**
 * A private key ready to sign JWTs; `kid` lets verifiers pick the matching public key.
 * @public
 */
export interface SigningKey {
  readonly kid: string;
  readonly alg: SigningAlgorithm;
  readonly privateKey: CryptoKey | KeyObject;
}

/**
 * Where a {@link TokenMinter} gets its key (the dev key store, a key file, a KMS adapter...).
 * @public
 */
export interface SigningKeySource {
  getSigningKey(): Promise<SigningKey>;
}

/**
 * Injection token of the {@link SigningKeySource} the auth module provides.
 * @public
 */
export const SIGNING_KEY_SOURCE = 'S2SP_AUTH_SIGNING_KEY_SOURCE';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** The public half of a JWK: every private member removed. */
export function publicJwkOf(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  delete copy.key_ops;
  return copy;
}

/** The algorithm a private JWK signs with: its `alg`, or the one its key type implies. */
function algorithmOf(jwk: JWK): SigningAlgorithm {
  const implied = jwk.kty === 'RSA' ? 'RS256' : jwk.kty === 'EC' && jwk.crv === 'P-256' ? 'ES256' : undefined;
  const alg = jwk.alg ?? implied;
  if (!isSigningAlgorithm(alg) || alg !== implied) {
    throw new Error(
      `signing key must be an RSA (RS256) or EC P-256 (ES256) private JWK, got kty=${String(jwk.kty)} alg=${String(jwk.alg)}`,
    );
  }
  return alg;
}

/**
 * Imports a private JWK (RSA or EC P-256); `kid` defaults to the RFC 7638 thumbprint.
 * @public
 */
export async function signingKeyFromJwk(jwk: JWK): Promise<SigningKey> {
  if (typeof jwk !== 'object' || jwk === null || typeof jwk.d !== 'string') {
    throw new Error('signing key must be a private JWK (with "d")');
  }
  const alg = algorithmOf(jwk);
  const kid =
    typeof jwk.kid === 'string' && jwk.kid !== '' ? jwk.kid : await jose().calculateJwkThumbprint(publicJwkOf(jwk));
  const privateKey = await jose().importJWK({ ...jwk, alg }, alg);
  if (privateKey instanceof Uint8Array) throw new Error('signing key must be asymmetric');
  return { kid, alg, privateKey };
}

/**
 * A private JWK in a file (mode 0600), e.g. a platform key mounted from a secret store.
 * @public
 */
export class FileSigningKeySource implements SigningKeySource {
  private key?: Promise<SigningKey>;

  constructor(readonly path: string) {}

  getSigningKey(): Promise<SigningKey> {
    this.key ??= this.load().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async load(): Promise<SigningKey> {
    let jwk: JWK;
    try {
      jwk = JSON.parse(await readPrivateFile(this.path)) as JWK;
    } catch (error) {
      throw new Error(`cannot read the signing key ${this.path}: ${(error as Error).message}`);
    }
    return signingKeyFromJwk(jwk);
  }
}
