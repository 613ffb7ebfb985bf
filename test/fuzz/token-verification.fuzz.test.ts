import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { base64url, type JWK } from 'jose';
import { AuthenticationError, type JwtTokenVerifier, type SigningKey } from '../../libs/auth/src';
import {
  devSetup,
  foreignKey,
  goodClaims,
  hs256WithSecret,
  nowSeconds,
  signRaw,
  unsecuredToken,
  type DevSetup,
  type RawClaims,
} from '../auth/auth-fixtures';
import { fuzz, fuzzTimeout } from '../support/fuzz';

// Invariant: the verifier accepts a token only if it is exactly one the trusted
// key signed with claims that are valid now. Tokens signed by other keys (under
// the trusted kid too), unsigned (`alg: none` in any case), HMAC-signed with the
// public key as the secret, with a swapped `alg`, with claims edited after
// signing, expired or not yet valid beyond the clock tolerance, and byte-level
// mutations of a good token are refused, always with AuthenticationError. A
// mutated token may pass only if it decodes to the very header, claims and
// signature of the good one. The unmodified good token is accepted (the control
// that keeps this property from passing with a verifier that refuses everything).

const TOLERANCE_SECONDS = 30;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

type Forgery =
  | { kind: 'original' }
  | { kind: 'foreign'; key: number; kid: 'trusted' | 'own' | 'none'; claims: RawClaims }
  | { kind: 'unsecured'; alg: string; signature: boolean; claims: RawClaims }
  | { kind: 'hmac'; secret: number; kid: boolean; claims: RawClaims }
  | { kind: 'expired'; claims: RawClaims }
  | { kind: 'alg-swap'; alg: string }
  | { kind: 'claims-edit'; claims: RawClaims }
  | { kind: 'mutation'; edits: Array<{ at: number; how: 'replace' | 'insert' | 'delete'; char: string }> }
  | { kind: 'garbage'; text: string };

const claimEdits = fc.record(
  {
    sub: fc.oneof(fc.constantFrom('alice', 'admin', ''), fc.string()),
    aud: fc.oneof(fc.constantFrom('gateway', 'other'), fc.constant<string[]>(['other', 'gateway'])),
    scope: fc.constantFrom('a b c', 'admin', '*'),
    iss: fc.constantFrom('s2sp-dev', 'evil'),
    exp: fc.integer({ min: 1, max: 86_400 * 365 }).map((ahead) => nowSeconds() + ahead),
  },
  { requiredKeys: [] },
);

const forgery: fc.Arbitrary<Forgery> = fc.oneof(
  fc.constant({ kind: 'original' as const }),
  fc.record({
    kind: fc.constant('foreign' as const),
    key: fc.nat(),
    kid: fc.constantFrom('trusted' as const, 'own' as const, 'none' as const),
    claims: claimEdits,
  }),
  fc.record({
    kind: fc.constant('unsecured' as const),
    alg: fc.constantFrom('none', 'None', 'NONE', 'nOnE'),
    signature: fc.boolean(),
    claims: claimEdits,
  }),
  fc.record({ kind: fc.constant('hmac' as const), secret: fc.nat(), kid: fc.boolean(), claims: claimEdits }),
  fc.record({
    kind: fc.constant('expired' as const),
    claims: fc.oneof(
      fc.integer({ min: TOLERANCE_SECONDS + 2, max: 1_000_000_000 }).map((ago) => ({ exp: nowSeconds() - ago })),
      fc.integer({ min: TOLERANCE_SECONDS + 2, max: 1_000_000_000 }).map((ahead) => ({ nbf: nowSeconds() + ahead })),
      fc.constantFrom<RawClaims>(
        { exp: undefined },
        { exp: 'never' as never },
        { exp: null as never },
        { sub: undefined },
        { iss: 'evil' },
        { aud: 'other' },
      ),
    ),
  }),
  fc.record({
    kind: fc.constant('alg-swap' as const),
    alg: fc.constantFrom('ES384', 'ES512', 'RS256', 'PS256', 'HS256', 'EdDSA', 'ES256K', '', 'es256'),
  }),
  fc.record({
    kind: fc.constant('claims-edit' as const),
    claims: claimEdits.filter((edits) => Object.keys(edits).length > 0),
  }),
  fc.record({
    kind: fc.constant('mutation' as const),
    edits: fc.array(
      fc.record({
        at: fc.nat(),
        how: fc.constantFrom('replace' as const, 'insert' as const, 'delete' as const),
        char: fc.oneof(
          fc.constantFrom(...BASE64URL, '.', '=', ' ', '+', '/'),
          fc.string({ minLength: 1, maxLength: 1 }),
        ),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  fc.record({
    kind: fc.constant('garbage' as const),
    text: fc.oneof(
      fc.string(),
      fc.array(fc.string({ unit: 'binary' }), { minLength: 3, maxLength: 3 }).map((parts) => parts.join('.')),
    ),
  }),
);

const encodeSegment = (value: unknown): string => base64url.encode(JSON.stringify(value));
const decodeSegment = (segment: string): unknown => JSON.parse(new TextDecoder().decode(base64url.decode(segment)));

function applyEdits(
  token: string,
  edits: Array<{ at: number; how: 'replace' | 'insert' | 'delete'; char: string }>,
): string {
  let text = token;
  for (const { at, how, char } of edits) {
    const i = at % (text.length + 1);
    if (how === 'insert') text = text.slice(0, i) + char + text.slice(i);
    else if (how === 'delete') text = text.slice(0, i) + text.slice(i + 1);
    else text = text.slice(0, i) + char + text.slice(i + 1);
  }
  return text;
}

/** Whether `token` carries exactly the header, claims and signature of `good` (equal bytes, maybe spelled otherwise). */
function sameTokenAs(token: string, good: string): boolean {
  const [header, payload, signature] = token.split('.');
  const [goodHeader, goodPayload, goodSignature] = good.split('.');
  if (header !== goodHeader || payload !== goodPayload || signature === undefined) return false;
  try {
    return Buffer.from(base64url.decode(signature)).equals(Buffer.from(base64url.decode(goodSignature)));
  } catch {
    return false;
  }
}

describe('fuzz: token verification', () => {
  let dev: DevSetup;
  let trusted: SigningKey;
  let verifier: JwtTokenVerifier;
  let good: string;
  let foreignKeys: SigningKey[];
  /** The trusted public key in every encoding an HMAC forgery might use as its secret. */
  let hmacSecrets: Array<string | Uint8Array>;

  before(async () => {
    dev = await devSetup();
    trusted = await dev.store.getSigningKey();
    verifier = dev.verifier('gateway', { clockToleranceSeconds: TOLERANCE_SECONDS });
    // Valid for a day, so that a long run does not outlive it.
    good = await signRaw(trusted, goodClaims('gateway', { exp: nowSeconds() + 86_400 }));
    foreignKeys = await Promise.all([
      foreignKey('ES256'),
      foreignKey('ES256', trusted.kid),
      foreignKey('RS256'),
      foreignKey('RS256', trusted.kid),
    ]);
    const publicJwk: JWK = (await dev.store.getPublicJwks()).keys[0];
    const pem = createPublicKey({ key: publicJwk as never, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const der = createPublicKey({ key: publicJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'der' });
    hmacSecrets = [
      JSON.stringify(publicJwk),
      pem,
      pem.trim(),
      der,
      JSON.stringify({ keys: [publicJwk] }),
      publicJwk.x ?? '',
      base64url.decode(publicJwk.x ?? ''),
    ];
  });
  after(() => dev.dir.remove());

  async function forge(input: Forgery): Promise<string> {
    const claims = (edits: RawClaims): RawClaims => goodClaims('gateway', { exp: nowSeconds() + 3600, ...edits });
    const [header, payload, signature] = good.split('.') as [string, string, string];
    switch (input.kind) {
      case 'original':
        return good;
      case 'foreign': {
        const key = foreignKeys[input.key % foreignKeys.length];
        const kid = input.kid === 'trusted' ? trusted.kid : input.kid === 'own' ? key.kid : undefined;
        return signRaw({ ...key, kid: kid ?? '' }, claims(input.claims), kid === undefined ? { kid: undefined } : {});
      }
      case 'unsecured': {
        const token = unsecuredToken(claims(input.claims));
        const [, body] = token.split('.');
        return `${encodeSegment({ alg: input.alg, typ: 'JWT', kid: trusted.kid })}.${body}.${input.signature ? signature : ''}`;
      }
      case 'hmac':
        return hs256WithSecret(
          hmacSecrets[input.secret % hmacSecrets.length],
          claims(input.claims),
          input.kid ? trusted.kid : undefined,
        );
      case 'expired':
        return signRaw(trusted, claims(input.claims));
      case 'alg-swap':
        return `${encodeSegment({ ...(decodeSegment(header) as object), alg: input.alg })}.${payload}.${signature}`;
      case 'claims-edit':
        return `${header}.${encodeSegment({ ...(decodeSegment(payload) as object), ...input.claims })}.${signature}`;
      case 'mutation':
        return applyEdits(good, input.edits);
      case 'garbage':
        return input.text;
    }
  }

  test(
    'only the unmodified good token is accepted; forged, re-signed, alg-swapped, expired and mutated tokens are refused',
    { timeout: fuzzTimeout(10) },
    async () => {
      const property = fc.asyncProperty(forgery, async (input) => {
        const token = await forge(input);
        let accepted = false;
        try {
          await verifier.verify(token);
          accepted = true;
        } catch (error) {
          assert.ok(error instanceof AuthenticationError, `only AuthenticationError, got ${String(error)}`);
        }
        if (input.kind === 'original') assert.ok(accepted, 'the good token is accepted');
        // An edit that changes nothing (a claim set to the value it had) leaves the good token.
        else assert.ok(!accepted || sameTokenAs(token, good), `a ${input.kind} token was accepted: ${token}`);
      });
      await fuzz('token verification', property);
    },
  );
});
