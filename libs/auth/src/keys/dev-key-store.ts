import type { JSONWebKeySet, JWK } from 'jose';
import { jose } from '../lazy-jose';
import { join, resolve } from 'node:path';
import { createPrivateFileExclusive, readPrivateFile, replacePrivateFile } from './private-file';
import { publicJwkOf, signingKeyFromJwk, type SigningKey, type SigningKeySource } from './signing-key';

/**
 * Issuer of tokens signed with the dev key.
 * @public
 */
export const DEV_ISSUER = 's2sp-dev';
/** Where the dev key lives unless configured (relative to the working directory, like the other `.data/` stores). */
export const DEFAULT_AUTH_DATA_DIR = '.data/auth';

export const DEV_PRIVATE_KEY_FILE = 'dev-signing-key.jwk.json';
export const DEV_PUBLIC_JWKS_FILE = 'dev-jwks.json';

/** @public */
export interface DevKeyStoreOptions {
  /** Default {@link DEFAULT_AUTH_DATA_DIR}. */
  dataDir?: string;
  /** Default {@link DEV_ISSUER}. */
  issuer?: string;
}

interface LoadedDevKey {
  signingKey: SigningKey;
  jwks: JSONWebKeySet;
}

/**
 * The embedded default key: an ES256 key pair generated on first use and kept in
 * the data dir (private JWK and public JWKS, both mode 0600, directory 0700), so
 * that every process on one machine — gateway, agents, MCP servers, data plane —
 * signs and verifies with the same key and nothing needs configuring.
 *
 * For development and single-machine deployments only: whoever can read the file
 * can mint any token. Production verifies against a JWKS (URL or file) instead.
 * @public
 */
export class DevKeyStore implements SigningKeySource {
  readonly dataDir: string;
  readonly issuer: string;
  readonly privateKeyPath: string;
  readonly publicJwksPath: string;
  private loaded?: Promise<LoadedDevKey>;

  constructor(options: DevKeyStoreOptions = {}) {
    this.dataDir = resolve(options.dataDir ?? DEFAULT_AUTH_DATA_DIR);
    this.issuer = options.issuer ?? DEV_ISSUER;
    this.privateKeyPath = join(this.dataDir, DEV_PRIVATE_KEY_FILE);
    this.publicJwksPath = join(this.dataDir, DEV_PUBLIC_JWKS_FILE);
  }

  async getSigningKey(): Promise<SigningKey> {
    return (await this.load()).signingKey;
  }

  /** The public JWKS (one key), e.g. to serve at /.well-known/jwks.json. */
  async getPublicJwks(): Promise<JSONWebKeySet> {
    return (await this.load()).jwks;
  }

  /** Forgets the key in memory; the next use reads the file again (after another process replaced it). */
  reload(): void {
    this.loaded = undefined;
  }

  private load(): Promise<LoadedDevKey> {
    this.loaded ??= this.loadOrCreate().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  private async loadOrCreate(): Promise<LoadedDevKey> {
    let text: string;
    try {
      text = await readPrivateFile(this.privateKeyPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw this.failure(error);
      // First use on this machine. If another process is creating it at the same time, its key wins.
      await createPrivateFileExclusive(this.privateKeyPath, `${JSON.stringify(await generateDevJwk(), null, 2)}\n`);
      text = await readPrivateFile(this.privateKeyPath);
    }
    let privateJwk: JWK;
    try {
      privateJwk = JSON.parse(text) as JWK;
    } catch {
      throw this.failure(new Error('not JSON'));
    }
    const signingKey = await signingKeyFromJwk(privateJwk).catch((error: unknown) => {
      throw this.failure(error);
    });
    const jwks: JSONWebKeySet = {
      keys: [{ ...publicJwkOf(privateJwk), kid: signingKey.kid, alg: signingKey.alg, use: 'sig' }],
    };
    await this.publishJwks(jwks);
    return { signingKey, jwks };
  }

  /** Keeps the public JWKS file in step with the private key, for verifiers configured with S2SP_AUTH_JWKS_FILE. */
  private async publishJwks(jwks: JSONWebKeySet): Promise<void> {
    const content = `${JSON.stringify(jwks, null, 2)}\n`;
    const current = await readPrivateFile(this.publicJwksPath).catch(() => undefined);
    if (current !== content) await replacePrivateFile(this.publicJwksPath, content);
  }

  private failure(error: unknown): Error {
    return new Error(
      `dev signing key ${this.privateKeyPath} is unusable: ${(error as Error).message}. Delete it to generate a new one.`,
    );
  }
}

async function generateDevJwk(): Promise<JWK> {
  const { exportJWK, generateKeyPair, calculateJwkThumbprint } = jose();
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwkOf(jwk));
  return { ...jwk, kid, alg: 'ES256', use: 'sig' };
}
