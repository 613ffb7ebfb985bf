import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { PLATFORM_SCOPES } from '@s2sp/contracts';
import { emptyUsage } from '../../libs/agents/src/common/usage';
import { TaskRepository } from '../../libs/agents/src/tasks/task-repository';
import type { TaskDefinition } from '../../libs/agents/src/tasks/task-definition';
import type { TaskStatusName } from '../../libs/agents/src/tasks/task-records';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, unary, unaryError, type AgentsClients, type Message } from '../support/agents-grpc-client';

function taskOf(caller: string, index: number): TaskDefinition {
  return {
    taskId: `0190f5d0-0000-7000-8000-${String(index).padStart(12, '0')}`,
    agentType: 's2sp-pipeline',
    objective: { natural_language: `task ${index} of ${caller}`, goals: [], success_criteria: [] },
    constraints: {
      maxSteps: 0,
      maxRecursionDepth: 0,
      tokenBudget: 0,
      costBudgetMicrodollars: 0,
      permittedTools: [],
      prohibitedActions: [],
    },
    plan: [],
    caller,
    schemaVersion: 1,
  };
}

describe('agents s2sp.v2.AgentService/ListTasks', () => {
  let agents: RunningAgents;
  let alice: AgentsClients;
  let bob: AgentsClients;
  let noScope: AgentsClients;

  before(async () => {
    agents = await startTestAgents(agentsTestConfig([], { taskList: { defaultPageSize: 3, maxPageSize: 4 } }));
    const repository = agents.app.get(TaskRepository);
    // Seven tasks of alice (created one after another, so newest is index 7), two of bob; alice's 2 and 5 failed.
    const order: Array<[string, number]> = [
      ['alice', 1],
      ['bob', 101],
      ['alice', 2],
      ['alice', 3],
      ['alice', 4],
      ['bob', 102],
      ['alice', 5],
      ['alice', 6],
      ['alice', 7],
    ];
    for (const [caller, index] of order) {
      await repository.create(taskOf(caller, index), emptyUsage());
      if (index === 2 || index === 5)
        await repository.setStatus(taskOf(caller, index).taskId, 'FAILED' satisfies TaskStatusName);
    }
    alice = connectAgents(agents.url, { subject: 'alice' });
    bob = connectAgents(agents.url, { subject: 'bob' });
    noScope = connectAgents(agents.url, { subject: 'alice', scopes: [PLATFORM_SCOPES.TOOLS_LIST] });
  });

  after(async () => {
    alice?.close();
    bob?.close();
    noScope?.close();
    await agents?.close();
  });

  const objectives = (page: Message) => page.tasks.map((task: Message) => task.objective);

  test('a caller sees only its own tasks, newest first, in pages of the configured default size', async () => {
    const first = await unary(alice.agentsV2, 'ListTasks', {});
    assert.deepEqual(objectives(first), ['task 7 of alice', 'task 6 of alice', 'task 5 of alice']);
    assert.equal(first.tasks[0].status, 'TASK_STATUS_ACCEPTED');
    assert.equal(first.tasks[0].agent_type, 's2sp-pipeline');
    assert.ok(first.tasks[0].created_at, 'created_at is set');
    assert.notEqual(first.next_cursor, '');
    const second = await unary(alice.agentsV2, 'ListTasks', { cursor: first.next_cursor });
    assert.deepEqual(objectives(second), ['task 4 of alice', 'task 3 of alice', 'task 2 of alice']);
    const last = await unary(alice.agentsV2, 'ListTasks', { cursor: second.next_cursor });
    assert.deepEqual(objectives(last), ['task 1 of alice']);
    assert.equal(last.next_cursor, '', 'no cursor after the last page');

    const bobs = await unary(bob.agentsV2, 'ListTasks', { page_size: 10 });
    assert.deepEqual(objectives(bobs), ['task 102 of bob', 'task 101 of bob']);
  });

  test('page_size above the maximum is cut to it; the status filter keeps only that status', async () => {
    const big = await unary(alice.agentsV2, 'ListTasks', { page_size: 50 });
    assert.equal(big.tasks.length, 4);
    const failed = await unary(alice.agentsV2, 'ListTasks', { status: 'TASK_STATUS_FAILED' });
    assert.deepEqual(objectives(failed), ['task 5 of alice', 'task 2 of alice']);
    assert.ok(failed.tasks.every((task: Message) => task.status === 'TASK_STATUS_FAILED'));
  });

  test('a bad cursor, or a cursor used with another status filter, is INVALID_ARGUMENT with a clear message', async () => {
    const garbage = await unaryError(alice.agentsV2, 'ListTasks', { cursor: 'not a cursor!' });
    assert.equal(garbage.code, grpc.status.INVALID_ARGUMENT);
    assert.match(
      garbage.details,
      /cursor: not a cursor from a previous ListTasks page .*start again with an empty cursor/,
    );
    const forged = await unaryError(alice.agentsV2, 'ListTasks', {
      cursor: Buffer.from('{"t":"x"}').toString('base64url'),
    });
    assert.equal(forged.code, grpc.status.INVALID_ARGUMENT);
    const first = await unary(alice.agentsV2, 'ListTasks', {});
    const mixed = await unaryError(alice.agentsV2, 'ListTasks', {
      cursor: first.next_cursor,
      status: 'TASK_STATUS_FAILED',
    });
    assert.equal(mixed.code, grpc.status.INVALID_ARGUMENT);
    assert.match(mixed.details, /status filter "" but this request filters "FAILED"/);
  });

  test("a cursor from another caller's listing still lists only the caller's own tasks", async () => {
    const alicePage = await unary(alice.agentsV2, 'ListTasks', { page_size: 1 });
    const bobs = await unary(bob.agentsV2, 'ListTasks', { cursor: alicePage.next_cursor, page_size: 10 });
    assert.ok(bobs.tasks.every((task: Message) => /of bob$/.test(task.objective)));
  });

  test('without tasks:read the call is PERMISSION_DENIED', async () => {
    const refused = await unaryError(noScope.agentsV2, 'ListTasks', {});
    assert.equal(refused.code, grpc.status.PERMISSION_DENIED);
  });
});
