// The agents' task repository and the gateway's idempotency store run their statements on the
// database's driver; the same statements must behave on PGlite and on PostgreSQL.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { emptyUsage } from '../../libs/agents/src/common/usage';
import type { TaskDefinition } from '../../libs/agents/src/tasks/task-definition';
import type { StepRecord } from '../../libs/agents/src/tasks/task-records';
import { TaskRepository } from '../../libs/agents/src/tasks/task-repository';
import { AlreadyExistsError } from '../../libs/agents/src/common/request-errors';
import { PrismaIdempotencyStore } from '../../libs/gateway/src/idempotency/prisma-idempotency-store';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];

function taskOf(caller: string, text: string): TaskDefinition {
  return {
    taskId: randomUUID(),
    agentType: 'declarative',
    objective: { natural_language: text, goals: [], success_criteria: [] },
    constraints: { maxSteps: 0, maxRecursionDepth: 1, tokenBudget: 0, costBudgetMicrodollars: 0 } as never,
    plan: [{ step_id: 'one' }, { step_id: 'two' }] as never,
    caller,
    deadlineMs: Date.parse('2030-01-01T00:00:00Z'),
    schemaVersion: 1,
  };
}

function stepOf(taskId: string, stepNumber: number): StepRecord {
  return {
    task_id: taskId,
    step_number: stepNumber,
    type: 'ACT',
    outcome: 'SUCCESS',
    plan_step_id: `step-${stepNumber}`,
    summary: 'called get_alerts',
    payload: { rows: 2 },
    tool_calls: [],
    usage: { ...emptyUsage(), tool_calls: 1 },
    started_at_ms: 1,
    finished_at_ms: 2,
  };
}

for (const kind of KINDS) {
  describe(`TaskRepository on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test('a task is created once, its steps and completion stored, and read back whole', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const tasks = new TaskRepository(db);
      const task = taskOf('alice', 'Chart the wind alerts in CA');
      const createdAt = await tasks.create(task, emptyUsage());
      assert.ok(createdAt instanceof Date);
      await assert.rejects(tasks.create(task, emptyUsage()), AlreadyExistsError);
      assert.equal(await tasks.exists(task.taskId), true);
      assert.equal(await tasks.exists(randomUUID()), false);

      await tasks.setStatus(task.taskId, 'RUNNING');
      await tasks.appendStep(stepOf(task.taskId, 1), { ...emptyUsage(), tool_calls: 1 });
      await tasks.appendStep(stepOf(task.taskId, 2), { ...emptyUsage(), tool_calls: 2 });
      await assert.rejects(tasks.appendStep(stepOf(task.taskId, 2), emptyUsage()), 'a step is stored once');
      assert.equal((await tasks.load(task.taskId))?.usage.tool_calls, 2, 'the failed append changed nothing');
      await tasks.finish(task.taskId, {
        status: 'SUCCEEDED',
        usage: { ...emptyUsage(), tool_calls: 2, tokens_kept_out: 480 },
        result: { chart: 'wind.svg' },
        completedAtMs: Date.parse('2026-11-28T10:00:00Z'),
      });

      const view = await tasks.load(task.taskId);
      assert.equal(view?.status, 'SUCCEEDED');
      assert.equal(view?.caller, 'alice');
      assert.deepEqual(view?.result, { chart: 'wind.svg' });
      assert.equal(view?.error, undefined);
      assert.deepEqual(
        view?.steps.map((step) => step.step_number),
        [1, 2],
      );
      assert.deepEqual(view?.steps[0], stepOf(task.taskId, 1));
      assert.equal(view?.usage.tokens_kept_out, 480);
      assert.equal(view?.completedAtMs, Date.parse('2026-11-28T10:00:00Z'));
      assert.ok(view!.updatedAtMs >= view!.createdAtMs);
      assert.equal(await tasks.load(randomUUID()), undefined);
    });

    test("a caller's tasks are listed newest first in pages, filtered by status; unfinished ones are failed on demand", async (t) => {
      const db = database.get(t);
      if (!db) return;
      const tasks = new TaskRepository(db);
      const caller = `lister-${randomUUID()}`;
      const created: string[] = [];
      for (let index = 0; index < 5; index++) {
        const task = taskOf(caller, `task ${index}`);
        await tasks.create(task, emptyUsage());
        created.push(task.taskId);
      }
      await tasks.create(taskOf(`someone-else-${randomUUID()}`, 'not listed'), emptyUsage());

      const pages: string[][] = [];
      let after: { createdAtMs: number; taskId: string } | undefined;
      for (;;) {
        const page = await tasks.listForCaller(caller, { limit: 2, ...(after ? { after } : {}) });
        if (page.length === 0) break;
        pages.push(page.map((summary) => summary.taskId));
        const last = page.at(-1)!;
        after = { createdAtMs: last.createdAtMs, taskId: last.taskId };
      }
      assert.deepEqual(
        pages.map((page) => page.length),
        [2, 2, 1],
      );
      assert.deepEqual(new Set(pages.flat()), new Set(created), 'every task once, none of another caller');
      const [first] = await tasks.listForCaller(caller, { limit: 1 });
      assert.equal(first.objective.startsWith('task '), true);
      assert.equal(first.planSteps, 2);

      await tasks.setStatus(created[0], 'SUCCEEDED');
      const unfinished = await tasks.unfinishedTaskIds();
      assert.ok(created.slice(1).every((id) => unfinished.includes(id)));
      assert.ok(!unfinished.includes(created[0]));
      const succeeded = await tasks.listForCaller(caller, { limit: 10, status: 'SUCCEEDED' });
      assert.deepEqual(
        succeeded.map((summary) => summary.taskId),
        [created[0]],
      );

      const error = { code: 14, message: 'cut off by a restart', recovery_hint: 'RETRY' };
      assert.equal(await tasks.failUnfinished(error, created), 4, 'the finished one is left alone');
      const failed = await tasks.load(created[1]);
      assert.equal(failed?.status, 'FAILED');
      assert.deepEqual(failed?.error, error);
      assert.ok(failed?.completedAtMs);
      assert.equal(await tasks.failUnfinished(error, []), 0);
    });
  });

  describe(`PrismaIdempotencyStore on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test('one claim per key; completed with its result (null too); released, expired and swept', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaIdempotencyStore(db);
      const key = (name: string) => `${name}-${randomUUID()}`.padEnd(64, '0').slice(0, 64);
      const inOneHour = new Date(Date.now() + 3_600_000);
      const record = {
        keyHash: key('a'),
        method: 'agent.submitTask',
        requestHash: 'f'.repeat(64),
        expiresAt: inOneHour,
      };

      const claims = await Promise.all([store.claim(record), store.claim(record), store.claim(record)]);
      assert.deepEqual(claims.filter(Boolean).length, 1, 'exactly one of concurrent claims wins');
      assert.equal((await store.find(record.keyHash))?.state, 'IN_PROGRESS');

      await store.complete(record.keyHash, { task_id: 't-1', rows: [1, 2] }, inOneHour);
      const done = await store.find(record.keyHash);
      assert.deepEqual(
        [done?.state, done?.result, done?.method, done?.requestHash],
        ['COMPLETED', { task_id: 't-1', rows: [1, 2] }, 'agent.submitTask', 'f'.repeat(64)],
      );
      await store.release(record.keyHash);
      assert.ok(await store.find(record.keyHash), 'a completed record is not released');

      const nothing = { ...record, keyHash: key('b') };
      await store.claim(nothing);
      await store.complete(nothing.keyHash, undefined, inOneHour);
      assert.equal((await store.find(nothing.keyHash))?.result, null);

      const abandoned = { ...record, keyHash: key('c') };
      await store.claim(abandoned);
      await store.release(abandoned.keyHash);
      assert.equal(await store.find(abandoned.keyHash), undefined);

      const expiring = { ...record, keyHash: key('d'), expiresAt: new Date(Date.now() - 1_000) };
      await store.claim(expiring);
      await store.deleteIfExpired(record.keyHash, new Date());
      assert.ok(await store.find(record.keyHash), 'not expired: kept');
      assert.ok((await store.sweepExpired(new Date())) >= 1);
      assert.equal(await store.find(expiring.keyHash), undefined);
      assert.equal(await store.find('0'.repeat(64)), undefined);
    });
  });
}
