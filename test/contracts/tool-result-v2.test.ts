import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { v2 } from '@s2sp/contracts';
import { toolResultV2 } from '../../libs/agents/src/tools/invoke-tool-v2-messages';
import { normalizeToolResult } from '../../libs/agents/src/tools/mcp-tool-result';
import { callToolResultOf } from '../../libs/gateway/src/transcoding/invoke-tool-v2-transcoding';

/** MCP result → typed v2 ToolResult (agents) → wire → MCP JSON again (gateway). */
function throughV2(raw: Record<string, unknown>) {
  const typed = toolResultV2(normalizeToolResult(raw));
  const wire = v2.ToolResult.encode(typed).finish();
  return { typed, wire, json: callToolResultOf(v2.ToolResult.decode(wire)) };
}

const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');

describe('s2sp.v2 typed tool results', () => {
  test('every MCP content block comes back exactly as MCP sent it', () => {
    const content = [
      { type: 'text', text: 'Charted 3 rows.', annotations: { audience: ['user'], priority: 0.5 } },
      { type: 'image', data: svg, mimeType: 'image/svg+xml', _meta: { source: 'chart' } },
      { type: 'audio', data: Buffer.from([0, 1, 2, 255]).toString('base64'), mimeType: 'audio/wav' },
      {
        type: 'resource_link',
        uri: 'weather://alerts/CA',
        name: 'CA alerts',
        title: 'Alerts',
        description: 'All of them',
        mimeType: 'application/json',
        size: 4096,
      },
      { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
      { type: 'resource', resource: { uri: 'file:///b.bin', blob: Buffer.from('bytes').toString('base64') } },
      { type: 'map', center: [1, 2] },
    ];
    const raw = { content, structuredContent: { count: 3 }, _meta: { 's2sp/body_tokens': 12 } };
    const { json } = throughV2(raw);
    assert.deepEqual(json, raw);
  });

  test('binary data travels as bytes, not base64 text', () => {
    const { typed } = throughV2({ content: [{ type: 'image', data: svg, mimeType: 'image/svg+xml' }] });
    assert.deepEqual(Buffer.from(typed.content[0].image!.data), Buffer.from(svg, 'base64'));
    assert.equal(typed.content[0].other, undefined);
  });

  test('a block whose members are not what MCP defines travels verbatim as `other`, never altered', () => {
    const odd = [
      { type: 'image', data: 'not base64!', mimeType: 'image/png' },
      { type: 'text', text: 42 },
      { type: 'resource_link', uri: 'x://y' },
    ];
    const { typed, json } = throughV2({ content: odd });
    assert.deepEqual(
      typed.content.map((block) =>
        Object.keys(block).filter((key) => block[key as keyof v2.ContentBlock] !== undefined),
      ),
      [['other'], ['other'], ['other']],
    );
    assert.deepEqual(json.content, odd);
  });

  test('a tool error keeps isError; a success leaves it out', () => {
    assert.equal(throughV2({ content: [{ type: 'text', text: 'boom' }], isError: true }).json.isError, true);
    assert.equal(throughV2({ content: [] }).json.isError, undefined);
  });

  test("the protocol's own _meta keys (a 2026-07-28 server's serverInfo) are left out; the tool's stay", () => {
    const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'stats-server', version: '0.1.0' } };
    const stamped = normalizeToolResult({ content: [], _meta: { ...serverInfo, 's2sp/body_tokens': 12 } });
    assert.deepEqual(stamped._meta, { 's2sp/body_tokens': 12 });
    assert.equal('_meta' in normalizeToolResult({ content: [], _meta: serverInfo }), false);
  });
});
