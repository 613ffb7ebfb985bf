import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_LIMITS,
  normalizeOrigin,
  resolveS2spOptions,
  type S2spLimits,
} from '../../libs/s2sp/src/config/s2sp-options';

function throwsWith(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('DEFAULT_LIMITS', () => {
  test('agree with each other: the largest fetch the other limits allow fits in maxRequestBytes', () => {
    const ids = Array.from(
      { length: DEFAULT_LIMITS.maxRowIdsPerFetch },
      (_, i) => DEFAULT_LIMITS.maxRows - 1 - (i % 10),
    );
    const columns = Array.from({ length: DEFAULT_LIMITS.maxColumnsPerRequest }, (_, i) =>
      `${i}`.padEnd(DEFAULT_LIMITS.maxColumnNameLength, '\u0001'),
    );
    const body = JSON.stringify({ row_ids: ids, columns });
    assert.ok(Buffer.byteLength(body) <= DEFAULT_LIMITS.maxRequestBytes, `${Buffer.byteLength(body)} bytes`);
  });

  test('has the documented values', () => {
    assert.deepEqual(DEFAULT_LIMITS, {
      maxRequestBytes: 1_048_576,
      maxRowIdsPerFetch: 100_000,
      maxColumnsPerRequest: 256,
      maxColumnNameLength: 256,
      maxRows: 100_000,
      maxResponseBytes: 67_108_864,
    });
  });
});

describe('resolveS2spOptions', () => {
  describe('defaults', () => {
    test('10-minute TTL, 60 s sweep, 10 s fetch timeout, no allowed origins, default limits, embedded database', () => {
      const resolved = resolveS2spOptions({});
      assert.equal(resolved.resourceTtlMs, 600_000);
      assert.equal(resolved.sweepIntervalMs, 60_000);
      assert.equal(resolved.fetchTimeoutMs, 10_000);
      assert.deepEqual(resolved.allowedResourceOrigins, []);
      assert.deepEqual(resolved.limits, DEFAULT_LIMITS);
      assert.deepEqual(resolved.database, {});
    });

    test('the built-in store keeps 64 MiB of issued tables in memory, writes each table 25 ms after answering, and other replicas wait 15 s for it', () => {
      const resolved = resolveS2spOptions({});
      assert.equal(resolved.resourceCacheBytes, 67_108_864);
      assert.equal(resolved.resourceWriteMode, 'after-answer');
      assert.equal(resolved.resourceWriteDelayMs, 25);
      assert.equal(resolved.resourceTableWaitMs, 15_000);
    });

    test('the resolved limits are a copy: changing them does not change DEFAULT_LIMITS', () => {
      const resolved = resolveS2spOptions({});
      assert.notEqual(resolved.limits, DEFAULT_LIMITS);
      resolved.limits.maxRows = 1;
      assert.equal(DEFAULT_LIMITS.maxRows, 100_000);
      assert.equal(resolveS2spOptions({}).limits.maxRows, 100_000);
    });
  });

  describe('given values', () => {
    test('explicit values are kept', () => {
      const resolved = resolveS2spOptions({
        resourceTtlMs: 5_000,
        sweepIntervalMs: 0,
        fetchTimeoutMs: 250,
        database: { dataDir: ':memory:' },
      });
      assert.equal(resolved.resourceTtlMs, 5_000);
      assert.equal(resolved.sweepIntervalMs, 0, '0 disables the sweeper');
      assert.equal(resolved.fetchTimeoutMs, 250);
      assert.deepEqual(resolved.database, { dataDir: ':memory:' });
    });

    test('partial limits override only the named limits', () => {
      const resolved = resolveS2spOptions({ limits: { maxRows: 10, maxResponseBytes: 1024 } });
      assert.deepEqual(resolved.limits, { ...DEFAULT_LIMITS, maxRows: 10, maxResponseBytes: 1024 });
    });

    test('a limit given as undefined keeps its default (it must not switch the limit off)', () => {
      // e.g. limits: { maxRows: envOptionalNumber('MAX_ROWS') } — undefined when unset.
      const limits: Partial<S2spLimits> = { maxRows: undefined, maxResponseBytes: undefined };
      const resolved = resolveS2spOptions({ limits });
      assert.equal(resolved.limits.maxRows, DEFAULT_LIMITS.maxRows);
      assert.equal(resolved.limits.maxResponseBytes, DEFAULT_LIMITS.maxResponseBytes);
    });
  });

  describe('invalid values throw, naming the option', () => {
    for (const value of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      test(`resourceTtlMs ${value}`, () => {
        throwsWith(
          () => resolveS2spOptions({ resourceTtlMs: value }),
          /S2spModule: resourceTtlMs must be a positive number of milliseconds/,
        );
      });
      test(`fetchTimeoutMs ${value}`, () => {
        throwsWith(
          () => resolveS2spOptions({ fetchTimeoutMs: value }),
          /S2spModule: fetchTimeoutMs must be a whole number of milliseconds from 1 to 2147483647/,
        );
      });
    }

    test('fetchTimeoutMs that no timer can hold (> 2^31-1 ms) or a fraction is refused', () => {
      // Node's AbortSignal.timeout fires after 1 ms for 2^31 (TimeoutOverflowWarning) and throws a
      // RangeError for fractions or > 2^32-1, so every fetch would fail.
      throwsWith(() => resolveS2spOptions({ fetchTimeoutMs: 2 ** 31 }), /fetchTimeoutMs/);
      throwsWith(() => resolveS2spOptions({ fetchTimeoutMs: 1e10 }), /fetchTimeoutMs/);
      throwsWith(() => resolveS2spOptions({ fetchTimeoutMs: 1500.5 }), /fetchTimeoutMs/);
    });

    test('sweepIntervalMs that is negative, NaN, infinite or larger than a timer can hold is refused', () => {
      // setInterval turns NaN, Infinity and > 2^31-1 into 1 ms: a sweep every millisecond.
      for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
        throwsWith(() => resolveS2spOptions({ sweepIntervalMs: value }), /sweepIntervalMs/);
      }
    });

    test('limits that are not positive integers are refused (a NaN limit compares false and disables the check)', () => {
      for (const value of [0, -5, Number.NaN, 1.5, Number.POSITIVE_INFINITY]) {
        throwsWith(() => resolveS2spOptions({ limits: { maxRows: value } }), /maxRows/);
        throwsWith(() => resolveS2spOptions({ limits: { maxResponseBytes: value } }), /maxResponseBytes/);
      }
    });
  });

  describe('dataPlaneAuth', () => {
    test('defaults to "bearer" and takes "capability"', () => {
      assert.equal(resolveS2spOptions({}).dataPlaneAuth, 'bearer');
      assert.equal(resolveS2spOptions({ dataPlaneAuth: 'capability' }).dataPlaneAuth, 'capability');
      assert.equal(resolveS2spOptions({ dataPlaneAuth: 'bearer' }).dataPlaneAuth, 'bearer');
    });

    test('anything else fails the start, naming the option and its values', () => {
      for (const value of ['none', 'Capability', '', null, 1]) {
        throwsWith(
          () => resolveS2spOptions({ dataPlaneAuth: value as never }),
          /S2spModule: dataPlaneAuth must be "capability" or "bearer"; got /,
        );
      }
    });
  });

  describe('publicBaseUrl', () => {
    test('a string is returned by the accessor', () => {
      assert.equal(
        resolveS2spOptions({ publicBaseUrl: 'https://weather.example.com' }).publicBaseUrl(),
        'https://weather.example.com',
      );
    });

    test('a function is read at each call (servers that learn their port late)', () => {
      let port = 0;
      const resolved = resolveS2spOptions({ publicBaseUrl: () => `http://127.0.0.1:${port}` });
      port = 3101;
      assert.equal(resolved.publicBaseUrl(), 'http://127.0.0.1:3101');
      port = 4000;
      assert.equal(resolved.publicBaseUrl(), 'http://127.0.0.1:4000');
    });

    test('unset: resolving works, but asking for it throws a clear error', () => {
      const resolved = resolveS2spOptions({});
      throwsWith(
        () => resolved.publicBaseUrl(),
        /S2spModule: publicBaseUrl is not configured, so no resource_url can be issued/,
      );
    });

    test('empty string, or a function returning empty, counts as unset', () => {
      throwsWith(() => resolveS2spOptions({ publicBaseUrl: '' }).publicBaseUrl(), /publicBaseUrl is not configured/);
      throwsWith(
        () => resolveS2spOptions({ publicBaseUrl: () => '' }).publicBaseUrl(),
        /publicBaseUrl is not configured/,
      );
    });
  });

  describe('allowedResourceOrigins', () => {
    test('are normalized', () => {
      const resolved = resolveS2spOptions({
        allowedResourceOrigins: ['http://LocalHost:80/', 'HTTPS://Weather.Example.COM:443', 'http://127.0.0.1:3101'],
      });
      assert.deepEqual(resolved.allowedResourceOrigins, [
        'http://localhost',
        'https://weather.example.com',
        'http://127.0.0.1:3101',
      ]);
    });

    test('an invalid entry makes resolving throw, naming the entry', () => {
      throwsWith(
        () => resolveS2spOptions({ allowedResourceOrigins: ['http://ok:1', 'ftp://files.example.com'] }),
        /"ftp:\/\/files\.example\.com" is not http\(s\)/,
      );
      throwsWith(() => resolveS2spOptions({ allowedResourceOrigins: ['not a url'] }), /"not a url" is not a URL/);
    });
  });
});

describe('normalizeOrigin', () => {
  const cases: Array<[string, string]> = [
    ['http://Host:80/', 'http://host'],
    ['http://host:80', 'http://host'],
    ['https://host:443/', 'https://host'],
    ['http://host:443', 'http://host:443'],
    ['https://host:80', 'https://host:80'],
    ['http://127.0.0.1:3101', 'http://127.0.0.1:3101'],
    ['HTTP://EXAMPLE.com:8080', 'http://example.com:8080'],
    ['http://[::1]:3101/', 'http://[::1]:3101'],
    ['http://user:secret@host:3101', 'http://host:3101'],
    ['http://bücher.example', 'http://xn--bcher-kva.example'],
  ];
  for (const [input, expected] of cases) {
    test(`${input} → ${expected}`, () => {
      assert.equal(normalizeOrigin(input), expected);
    });
  }

  test('non-http(s) schemes are refused, naming the entry', () => {
    for (const input of [
      'ftp://host',
      'file:///etc/passwd',
      'ws://host:80',
      'javascript:alert(1)',
      'data:text/plain,x',
    ]) {
      throwsWith(
        () => normalizeOrigin(input),
        new RegExp(
          `S2spModule: allowedResourceOrigins entry "${input.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" is not http\\(s\\)`,
        ),
      );
    }
  });

  test('a host:port without scheme is not an http origin', () => {
    throwsWith(() => normalizeOrigin('localhost:3101'), /"localhost:3101" is not http\(s\)/);
  });

  test('non-URLs are refused, naming the entry', () => {
    for (const input of ['', 'not a url', '127.0.0.1:3101', '//host:80', 'http://']) {
      throwsWith(
        () => normalizeOrigin(input),
        /S2spModule: allowedResourceOrigins entry ".*" is not (a URL|http\(s\))/,
      );
    }
  });
});

describe('resolveS2spOptions refuses what cannot work', () => {
  test('a maxRequestBytes too small for the row ids the other limits allow, naming the options and the size needed', () => {
    assert.throws(
      () => resolveS2spOptions({ limits: { maxRequestBytes: 65_536 } }),
      /^Error: S2spModule: limits\.maxRequestBytes \(65536\) cannot hold a fetch of limits\.maxRowIdsPerFetch \(100000\) row ids and limits\.maxColumnsPerRequest \(256\) columns: raise it to at least \d+, or lower those\.$/,
    );
    assert.equal(
      resolveS2spOptions({ limits: { maxRequestBytes: 65_536, maxRowIdsPerFetch: 5_000, maxColumnsPerRequest: 16 } })
        .limits.maxRequestBytes,
      65_536,
    );
  });

  test('a negative or fractional resourceCacheBytes, and an unknown resourceWriteMode', () => {
    assert.throws(
      () => resolveS2spOptions({ resourceCacheBytes: -1 }),
      /resourceCacheBytes must be a whole number, 0 or more/,
    );
    assert.throws(() => resolveS2spOptions({ resourceCacheBytes: 1.5 }), /resourceCacheBytes/);
    assert.equal(resolveS2spOptions({ resourceCacheBytes: 0 }).resourceCacheBytes, 0);
    assert.throws(
      () => resolveS2spOptions({ resourceWriteMode: 'later' as never }),
      /resourceWriteMode must be "before-answer" or "after-answer", got "later"/,
    );
  });

  test('warmUp: on by default, off on request, a boolean or refused', () => {
    assert.equal(resolveS2spOptions({}).warmUp, true);
    assert.equal(resolveS2spOptions({ warmUp: false }).warmUp, false);
    assert.throws(() => resolveS2spOptions({ warmUp: 'no' as never }), /warmUp must be true or false, got "no"/);
  });

  test('resourceClaimCommit: fast by default, durable on request, nothing else', () => {
    assert.equal(resolveS2spOptions({}).resourceClaimCommit, 'fast');
    assert.equal(resolveS2spOptions({ resourceClaimCommit: 'durable' }).resourceClaimCommit, 'durable');
    assert.throws(
      () => resolveS2spOptions({ resourceClaimCommit: 'sync' as never }),
      /resourceClaimCommit must be "fast" or "durable", got "sync"/,
    );
  });

  test('resourceTableWaitMs: 0 (do not wait) up to the timer maximum, nothing else', () => {
    assert.equal(resolveS2spOptions({ resourceTableWaitMs: 0 }).resourceTableWaitMs, 0);
    assert.equal(resolveS2spOptions({ resourceTableWaitMs: 2_500 }).resourceTableWaitMs, 2_500);
    assert.throws(
      () => resolveS2spOptions({ resourceTableWaitMs: -1 }),
      /resourceTableWaitMs must be a whole number of milliseconds from 0/,
    );
    assert.throws(() => resolveS2spOptions({ resourceTableWaitMs: 1.5 }), /resourceTableWaitMs/);
  });

  test('database.preparedStatements: true or false, nothing else', () => {
    assert.equal(resolveS2spOptions({ database: { preparedStatements: false } }).database.preparedStatements, false);
    assert.equal(resolveS2spOptions({ database: {} }).database.preparedStatements, undefined, 'default: prepared');
    assert.throws(
      () => resolveS2spOptions({ database: { preparedStatements: 'no' as never } }),
      /database\.preparedStatements must be true or false, got "no"/,
    );
  });

  test('resourceWriteDelayMs: 0 (the next turn of the event loop) up to the timer maximum, nothing else', () => {
    assert.equal(resolveS2spOptions({ resourceWriteDelayMs: 0 }).resourceWriteDelayMs, 0);
    assert.equal(resolveS2spOptions({ resourceWriteDelayMs: 100 }).resourceWriteDelayMs, 100);
    assert.throws(
      () => resolveS2spOptions({ resourceWriteDelayMs: -1 }),
      /resourceWriteDelayMs must be a whole number of milliseconds from 0/,
    );
    assert.throws(() => resolveS2spOptions({ resourceWriteDelayMs: Number.NaN }), /resourceWriteDelayMs/);
  });
});
