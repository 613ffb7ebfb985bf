import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/server';
import { withRequestStateIntegrity } from '../../libs/s2sp/src/mcp-surfaces/mcp-request-context';

const IDENTITY = { name: 'sealed', version: '1.0.0' };
const built = () => new McpServer(IDENTITY, { capabilities: { tools: { listChanged: true }, logging: {} } });
const verifyHookOf = (server: McpServer) =>
  (server.server as unknown as Record<string, unknown>)['_requestStateVerify'];

test('the requestState check is set on the server already built, which is not built twice', () => {
  const seal = withRequestStateIntegrity(IDENTITY, { instructions: '' });
  const server = built();
  const sealed = seal(server);
  assert.equal(sealed, server);
  assert.equal(typeof verifyHookOf(sealed), 'function');
});

test('a server that keeps no verify field where this SDK does (another SDK version) is built again with the check', () => {
  const seal = withRequestStateIntegrity(IDENTITY, { instructions: '' });
  const server = built();
  delete (server.server as unknown as Record<string, unknown>)['_requestStateVerify'];
  const sealed = seal(server);
  assert.notEqual(sealed, server);
  assert.deepEqual(sealed.server.getCapabilities(), server.server.getCapabilities());
  assert.equal(typeof verifyHookOf(sealed), 'function', 'built with the requestState option');
});
