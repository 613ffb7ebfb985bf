import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DATA_PLANE_PATH,
  generateResourceToken,
  hashResourceToken,
  isWellFormedResourceToken,
  newResourceTokens,
  resourceUrlFor,
} from '../../libs/s2sp/src/protocol/resource-token';

describe('newResourceTokens', () => {
  test('draws distinct well-formed 256-bit tokens, each with its hash, from one draw of the CSPRNG', () => {
    const tokens = [...newResourceTokens(512), ...newResourceTokens(512)];
    assert.equal(tokens.length, 1024);
    assert.equal(new Set(tokens.map(({ token }) => token)).size, 1024, 'no token repeats, within or across draws');
    for (const { token, tokenHash } of tokens) {
      assert.equal(isWellFormedResourceToken(token), true);
      assert.equal(Buffer.from(token, 'base64url').length, 32);
      assert.equal(tokenHash, hashResourceToken(token));
    }
    assert.deepEqual(newResourceTokens(0), []);
  });
});

describe('generateResourceToken', () => {
  test('is 43 base64url characters without padding', () => {
    for (let i = 0; i < 200; i++) {
      const token = generateResourceToken();
      assert.equal(token.length, 43);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.ok(!token.includes('='));
    }
  });

  test('decodes to exactly 32 bytes (256 bits) and re-encodes to itself', () => {
    const token = generateResourceToken();
    const bytes = Buffer.from(token, 'base64url');
    assert.equal(bytes.length, 32);
    assert.equal(bytes.toString('base64url'), token);
  });

  test('10,000 draws are all distinct', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) seen.add(generateResourceToken());
    assert.equal(seen.size, 10_000);
  });

  test('uses the whole alphabet and all bit positions (not a constant or low-entropy source)', () => {
    const chars = new Set<string>();
    const ones = new Array<number>(256).fill(0);
    const draws = 2_000;
    for (let i = 0; i < draws; i++) {
      const token = generateResourceToken();
      for (const c of token) chars.add(c);
      const bytes = Buffer.from(token, 'base64url');
      for (let bit = 0; bit < 256; bit++) if (bytes[bit >> 3] & (1 << (bit & 7))) ones[bit]++;
    }
    assert.equal(chars.size, 64);
    // Each bit is set with probability 1/2: expect 1000 ± ~22 (1σ). 5σ bounds.
    for (const count of ones) assert.ok(count > 880 && count < 1120, `bit frequency ${count}/${draws}`);
  });
});

describe('hashResourceToken', () => {
  test('is SHA-256 of the UTF-8 token, in lowercase hex', () => {
    assert.equal(hashResourceToken('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(hashResourceToken(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  test('is 64 hex characters, deterministic, and differs from the token', () => {
    const token = generateResourceToken();
    const hash = hashResourceToken(token);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(hashResourceToken(token), hash);
    assert.ok(!hash.includes(token));
  });

  test('distinct tokens have distinct hashes; a one-character change changes the hash', () => {
    const token = 'A'.repeat(43);
    assert.notEqual(hashResourceToken(token), hashResourceToken(`${'A'.repeat(42)}B`));
    const hashes = new Set(Array.from({ length: 1000 }, () => hashResourceToken(generateResourceToken())));
    assert.equal(hashes.size, 1000);
  });
});

describe('isWellFormedResourceToken', () => {
  test('accepts generated tokens and any 43 base64url characters', () => {
    for (let i = 0; i < 100; i++) assert.equal(isWellFormedResourceToken(generateResourceToken()), true);
    assert.equal(isWellFormedResourceToken('A'.repeat(43)), true);
    assert.equal(isWellFormedResourceToken('-_'.repeat(21) + 'z'), true);
  });

  test('rejects wrong lengths', () => {
    assert.equal(isWellFormedResourceToken(''), false);
    assert.equal(isWellFormedResourceToken('A'.repeat(42)), false);
    assert.equal(isWellFormedResourceToken('A'.repeat(44)), false);
    assert.equal(isWellFormedResourceToken(generateResourceToken() + '='), false);
  });

  test('rejects standard-base64 and other characters', () => {
    for (const bad of ['+', '/', '=', '.', ' ', '%', '~', 'é']) {
      assert.equal(isWellFormedResourceToken('A'.repeat(42) + bad), false, JSON.stringify(bad));
    }
  });

  test('rejects tokens with surrounding whitespace or a line break (anchored match)', () => {
    const token = generateResourceToken();
    assert.equal(isWellFormedResourceToken(` ${token}`), false);
    assert.equal(isWellFormedResourceToken(`${token}\n`), false);
    assert.equal(isWellFormedResourceToken(`${token}\nAAAA`), false);
  });

  test('rejects path tricks', () => {
    assert.equal(isWellFormedResourceToken('../' + 'A'.repeat(40)), false);
  });
});

describe('resourceUrlFor', () => {
  test('the data-plane path is /s2sp/data', () => {
    assert.equal(DATA_PLANE_PATH, '/s2sp/data');
  });

  test('joins base, path and token', () => {
    const token = 'A'.repeat(43);
    assert.equal(resourceUrlFor('http://127.0.0.1:3101', token), `http://127.0.0.1:3101/s2sp/data/${token}`);
  });

  test('strips trailing slashes from the base, keeps a base path', () => {
    const token = 'B'.repeat(43);
    assert.equal(
      resourceUrlFor('https://weather.example.com/', token),
      `https://weather.example.com/s2sp/data/${token}`,
    );
    assert.equal(
      resourceUrlFor('https://proxy.example.com/weather///', token),
      `https://proxy.example.com/weather/s2sp/data/${token}`,
    );
  });
});
