import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { classifyStepError } from '../../libs/agents/src/tasks/step-failure';
import { translateMcpFailure } from '../../libs/agents/src/mcp/mcp-failure';

const context = { serverId: 'weather', startedAt: Date.now(), timeoutMs: 1_000 };
const stepErrorOf = (failure: ProtocolError) => classifyStepError(translateMcpFailure(failure, context)).error;

describe('a task step whose MCP server answered with an error', () => {
  test("the server's scope refusal is the task's 4002, naming the scopes it lacks, not a tool failure", () => {
    const error = stepErrorOf(
      new ProtocolError(4002, 'Missing required scope: weather:read', { missing_scopes: ['weather:read'] }),
    );
    assert.equal(error.code, 4002);
    assert.match(error.message, /MCP server "weather" refused the request: .*Missing required scope: weather:read/);
    assert.deepEqual(error.details, { missing_scopes: ['weather:read'] });
  });

  test("the server's authentication and approval refusals keep their codes (4001, 4003)", () => {
    assert.equal(stepErrorOf(new ProtocolError(4001, 'Invalid or expired credentials.')).code, 4001);
    const approval = stepErrorOf(new ProtocolError(4003, 'Approval required'));
    assert.equal(approval.code, 4003);
    assert.equal(approval.details, undefined, 'no scope is missing');
  });

  test('refused arguments stay a tool failure (1002) asking to check them', () => {
    const error = stepErrorOf(new ProtocolError(ProtocolErrorCode.InvalidParams, 'arguments.area: required'));
    assert.deepEqual([error.code, error.recovery_hint], [1002, 'CHECK_TOOL_ARGUMENTS']);
  });
});
