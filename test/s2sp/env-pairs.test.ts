import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePairs } from '@s2sp/platform';
import { parseMcpServerList, withMcpAudiences } from '../../libs/agents/src/config/mcp-server-list';

test('parsePairs splits key=value lists at the first "=" and names a malformed entry', () => {
  assert.deepEqual(parsePairs(' a=http://x/?q=1 , ,b=c ', 'VAR', 'k=v', 'a=b'), [
    ['a', 'http://x/?q=1'],
    ['b', 'c'],
  ]);
  for (const text of ['nokey', '=value', 'key=', 'a=b,oops']) {
    assert.throws(() => parsePairs(text, 'VAR', 'k=v', 'a=b'), /^Error: VAR\[\d\] must be "k=v" \(e\.g\. a=b\)$/);
  }
});

test('AGENTS_MCP_AUDIENCES overrides the default <id>-server audience, and only for configured servers', () => {
  const servers = parseMcpServerList('weather=http://127.0.0.1:3101/mcp,stats=http://127.0.0.1:3102/mcp');
  const withAudience = withMcpAudiences(servers, 'weather=alerts-api');
  assert.deepEqual(
    withAudience.map((server) => server.audience),
    ['alerts-api', undefined],
  );
  assert.throws(() => withMcpAudiences(servers, 'charts=x'), /AGENTS_MCP_AUDIENCES names "charts"/);
});
