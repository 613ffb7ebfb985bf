import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { JsonRpcError } from '@s2sp/json-rpc';
import { defaultGatewayConfig } from '../../libs/gateway/src';
import { grpcDeadlineFor } from '../../libs/gateway/src/grpc/grpc-deadline';
import { findRepoRoot } from '../support/repo-root';

const REPO_ROOT = findRepoRoot(__dirname);

describe('the gRPC budget the gateway gives a call', () => {
  const settings = defaultGatewayConfig().grpc;
  const now = 1_800_000_000_000;
  const needed = settings.deadlineReserveMs + settings.minimumBudgetMs;

  test('a call needs the reserve plus the minimum budget; the refusal reports that sum as minimum_ms', () => {
    assert.equal(grpcDeadlineFor({ deadline: now + needed }, settings, now), now + needed - settings.deadlineReserveMs);
    assert.throws(
      () => grpcDeadlineFor({ deadline: now + needed - 1 }, settings, now),
      (error: unknown) =>
        error instanceof JsonRpcError &&
        error.code === -32000 &&
        error.data?.hop === 'gateway.dispatch' &&
        error.data?.minimum_ms === needed &&
        error.data?.remaining_ms === needed - 1,
    );
  });

  test('the gateway README states the defaults and the sum a refusal reports', () => {
    const readme = readFileSync(join(REPO_ROOT, 'libs', 'gateway', 'README.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.includes('`grpc.minimumBudgetMs`'));
    assert.ok(row, 'the configuration table has grpc.minimumBudgetMs');
    assert.match(row, new RegExp(`\\| ${settings.minimumBudgetMs} \\(`), 'its default');
    assert.match(row, new RegExp(`${needed} ms by default`), 'what minimum_ms says by default');
  });
});
