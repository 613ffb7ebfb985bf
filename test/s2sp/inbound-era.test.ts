import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isModernEra } from '../../libs/s2sp/src/bootstrap/inbound-era';
import type { McpRequest } from '../../libs/s2sp/src/bootstrap/mcp-request';

const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } };
const MODERN_META = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Requests at the edge of the shortcut for plain 2025-era messages, and well past it. */
const CASES: Array<{ name: string; headers: Record<string, string>; body: unknown; method?: string }> = [
  { name: 'a 2025 call', headers: { 'mcp-protocol-version': '2025-11-25' }, body: CALL },
  { name: 'a 2025 call, string id', headers: { 'mcp-protocol-version': '2025-06-18' }, body: { ...CALL, id: 'a' } },
  {
    name: 'a 2025 call without params',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', id: 1, method: 'ping' },
  },
  {
    name: 'a 2025 notification',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  },
  {
    name: 'a 2025 call with _meta',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { ...CALL, params: { ...CALL.params, _meta: { progressToken: 1 } } },
  },
  { name: 'a 2025 header padded with spaces', headers: { 'mcp-protocol-version': ' 2025-11-25 ' }, body: CALL },
  {
    name: 'initialize without a header',
    headers: {},
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
  },
  { name: 'a call without a header', headers: {}, body: CALL },
  {
    name: 'a 2026 call',
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body: { ...CALL, params: { ...CALL.params, _meta: MODERN_META } },
  },
  {
    name: 'a 2026 header padded with spaces',
    headers: { 'mcp-protocol-version': ' 2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body: { ...CALL, params: { ...CALL.params, _meta: MODERN_META } },
  },
  { name: 'a 2026 header without a claim', headers: { 'mcp-protocol-version': '2026-07-28' }, body: CALL },
  {
    name: 'a claim under a 2025 header',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { ...CALL, params: { ...CALL.params, _meta: MODERN_META } },
  },
  { name: 'a claim without a header', headers: {}, body: { ...CALL, params: { ...CALL.params, _meta: MODERN_META } } },
  {
    name: 'a posted result',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', id: 3, result: {} },
  },
  {
    name: 'a posted error',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', id: 3, error: { code: -1, message: 'no' } },
  },
  { name: 'a batch', headers: { 'mcp-protocol-version': '2025-11-25' }, body: [CALL] },
  { name: 'not JSON-RPC', headers: { 'mcp-protocol-version': '2025-11-25' }, body: { hello: 'world' } },
  {
    name: 'a wrong jsonrpc version',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { ...CALL, jsonrpc: '1.0' },
  },
  { name: 'a null id', headers: { 'mcp-protocol-version': '2025-11-25' }, body: { ...CALL, id: null } },
  { name: 'a fractional id', headers: { 'mcp-protocol-version': '2025-11-25' }, body: { ...CALL, id: 1.5 } },
  {
    name: 'params that are an array',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { ...CALL, params: [1] },
  },
  {
    name: '_meta that is an array',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { ...CALL, params: { _meta: [] } },
  },
  { name: 'no body', headers: { 'mcp-protocol-version': '2025-11-25' }, body: undefined },
  { name: 'a GET', headers: { 'mcp-protocol-version': '2025-11-25' }, body: CALL, method: 'GET' },
];

function requestOf({ headers, body, method = 'POST' }: (typeof CASES)[number]): McpRequest {
  return { method, headers, body } as unknown as IncomingMessage & { body?: unknown };
}

describe('the split of /mcp requests between the protocol eras', () => {
  for (const example of CASES) {
    test(`${example.name}: routed as the SDK classifies it`, () => {
      const outcome = classifyInboundRequest({
        httpMethod: example.method ?? 'POST',
        protocolVersionHeader: example.headers['mcp-protocol-version'],
        mcpMethodHeader: example.headers['mcp-method'],
        mcpNameHeader: example.headers['mcp-name'],
        body: example.body,
      });
      assert.equal(isModernEra(requestOf(example)), outcome.kind !== 'legacy', JSON.stringify(outcome));
    });
  }
});
