import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from 'pg';
import {
  startEmbeddedPostgres,
  DataDirectoryInUseError,
  type EmbeddedPostgresServer,
} from '../../libs/database/src/embedded-postgres-server';
import type { EmbeddedPostgresEvent } from '../../libs/database/src/embedded-postgres-supervisor';
import { isProcessAlive, readPostmasterPid } from '../../libs/database/src/postmaster-pid';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { fetchResource, startWeather, tempDir } from '../support/stack';

const ownerScript = path.join(__dirname, '..', 'support', 'embedded-postgres-owner.js');
const BLCKSZ = 8192;

async function query<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Runs test/support/embedded-postgres-owner in a child process; resolves once its server is up. */
async function startOwner(dataDir: string, value: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [ownerScript, dataDir, value], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line && stdout.includes('\n')) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`the owner exited (${code}): ${stderr}`)));
  });
  return { child, url };
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
  });
}

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('embedded PostgreSQL server', () => {
  test('runs a real PostgreSQL with data checksums, on loopback only, with bounded WAL, and stops completely', async () => {
    const dir = tempDir('s2sp-embedded-');
    let server: EmbeddedPostgresServer | undefined;
    try {
      server = await startEmbeddedPostgres({ dataDir: dir.path });
      const [settings] = await query<Record<string, string>>(
        server.url,
        `SELECT current_setting('data_checksums') AS checksums, current_setting('listen_addresses') AS listen,
                current_setting('max_wal_size') AS max_wal, current_setting('unix_socket_directories') AS sockets,
                current_setting('server_version_num') AS version`,
      );
      assert.equal(settings.checksums, 'on');
      assert.equal(settings.listen, '127.0.0.1');
      assert.equal(settings.max_wal, '64MB');
      assert.equal(settings.sockets, '');
      assert.ok(Number(settings.version) >= 180000);
      await assert.rejects(
        query(server.url.replace(/:[^:@/]+@/, ':wrong@'), 'SELECT 1'),
        /password authentication failed/,
        'a password is required, even on loopback',
      );

      const pid = readPostmasterPid(server.clusterDir)?.pid;
      await server.stop();
      assert.equal(isProcessAlive(pid as number), false);
      assert.equal(readPostmasterPid(server.clusterDir), null, 'a clean shutdown removes the lock file');
    } finally {
      await server?.stop();
      dir.remove();
    }
  });

  test('a second process on the same data directory is refused at once, by name, and the first keeps working', async () => {
    const dir = tempDir('s2sp-embedded-shared-');
    const owner = await startOwner(dir.path, 'first');
    try {
      // A start that waited for the server would give up only after startTimeoutMs.
      const startTimeoutMs = 60_000;
      const startedAt = Date.now();
      await assert.rejects(startEmbeddedPostgres({ dataDir: dir.path, startTimeoutMs }), (error: Error) => {
        assert.ok(error instanceof DataDirectoryInUseError);
        assert.ok(error.message.includes(dir.path), error.message);
        assert.match(error.message, new RegExp(`in use by another process \\(process ${owner.child.pid}\\)`));
        return true;
      });
      assert.ok(Date.now() - startedAt < startTimeoutMs, 'refused up front, not after a start timeout');
      assert.deepEqual(await query(owner.url, 'SELECT value FROM kept'), [{ value: 'first' }]);
    } finally {
      owner.child.kill('SIGTERM');
      await exitOf(owner.child);
      dir.remove();
    }
  });

  test('after its owner is killed with SIGKILL the server goes too, and a restart on the directory finds the data', async () => {
    const dir = tempDir('s2sp-embedded-kill-');
    const owner = await startOwner(dir.path, 'before the kill');
    const clusterDir = path.join(dir.path, 'postgres');
    const orphan = readPostmasterPid(clusterDir)?.pid as number;
    let server: EmbeddedPostgresServer | undefined;
    try {
      owner.child.kill('SIGKILL');
      await exitOf(owner.child);
      // Immediately: the orphaned server may still be shutting down, the start waits for it.
      server = await startEmbeddedPostgres({ dataDir: dir.path });
      assert.equal(isProcessAlive(orphan), false, 'the server of the killed owner is gone');
      assert.deepEqual(await query(server.url, 'SELECT value FROM kept'), [{ value: 'before the kill' }]);
    } finally {
      await server?.stop();
      owner.child.kill('SIGKILL');
      await waitUntil(() => !isProcessAlive(orphan), 15_000, 'the orphaned server did not stop');
      dir.remove();
    }
  });

  test('a server killed under its owner (kill -9) is started again on the same port: the URL works again, committed rows are there', async () => {
    const dir = tempDir('s2sp-embedded-restart-');
    const events: EmbeddedPostgresEvent[] = [];
    let server: EmbeddedPostgresServer | undefined;
    try {
      server = await startEmbeddedPostgres({ dataDir: dir.path, onEvent: (event) => events.push(event) });
      const running = server;
      await query(running.url, 'CREATE TABLE kept (value text NOT NULL)');
      await query(running.url, "INSERT INTO kept (value) VALUES ('committed before the kill')");
      const killed = readPostmasterPid(running.clusterDir)?.pid as number;

      process.kill(killed, 'SIGKILL');
      await waitUntil(() => events.some((event) => event.type === 'restarted'), 30_000, 'the server did not run again');
      assert.deepEqual(events[0], { type: 'exited', code: null, signal: 'SIGKILL' });
      assert.equal(running.state, 'running');
      const restarted = readPostmasterPid(running.clusterDir)?.pid;
      assert.ok(
        restarted && restarted !== killed && isProcessAlive(restarted),
        'a new postmaster serves the directory',
      );
      assert.deepEqual(await query(running.url, 'SELECT value FROM kept'), [{ value: 'committed before the kill' }]);

      await running.stop();
      assert.equal(running.state, 'stopped');
      assert.equal(isProcessAlive(restarted), false, 'stop() stops the restarted server');
      assert.equal(events.filter((event) => event.type === 'exited').length, 1, 'a stop is not an outage');
    } finally {
      await server?.stop();
      dir.remove();
    }
  });

  test('when every restart fails the supervisor gives up: onGiveUp gets the last error, the state is "failed"', async () => {
    const dir = tempDir('s2sp-embedded-give-up-');
    const events: EmbeddedPostgresEvent[] = [];
    let gaveUp: Error | undefined;
    let server: EmbeddedPostgresServer | undefined;
    const clusterDir = path.join(dir.path, 'postgres');
    const movedAway = path.join(dir.path, 'postgres-moved-away');
    try {
      server = await startEmbeddedPostgres({
        dataDir: dir.path,
        restart: { maxAttempts: 2, initialDelayMs: 10, maxDelayMs: 20 },
        onEvent: (event) => events.push(event),
        onGiveUp: (error) => (gaveUp = error),
      });
      const killed = readPostmasterPid(clusterDir)?.pid as number;
      // The cluster is gone when the server is killed: no restart can succeed.
      fs.renameSync(clusterDir, movedAway);
      process.kill(killed, 'SIGKILL');
      await waitUntil(() => gaveUp !== undefined, 30_000, 'the supervisor did not give up');
      assert.equal(server.state, 'failed');
      assert.deepEqual(
        events.map((event) => event.type),
        ['exited', 'restart-failed', 'restart-failed', 'gave-up'],
      );
      assert.match(gaveUp!.message, /could not be started again after 2 attempt\(s\)/);
      assert.ok(gaveUp!.message.includes(clusterDir), gaveUp!.message);
    } finally {
      await server?.stop();
      if (fs.existsSync(movedAway)) fs.renameSync(movedAway, clusterDir);
      dir.remove();
    }
  });

  test('restart options are checked before anything is started, naming the option', async () => {
    const dir = tempDir('s2sp-embedded-options-');
    try {
      await assert.rejects(
        startEmbeddedPostgres({ dataDir: path.join(dir.path, 'store'), restart: { maxAttempts: -1 } }),
        /restart\.maxAttempts must be a whole number of at least 0; got -1/,
      );
      await assert.rejects(
        startEmbeddedPostgres({ dataDir: path.join(dir.path, 'store'), restart: { maxDelayMs: 0.5 } }),
        /restart\.maxDelayMs must be a whole number of at least 1/,
      );
      assert.equal(fs.existsSync(path.join(dir.path, 'store')), false, 'nothing was created');
    } finally {
      dir.remove();
    }
  });

  test('refuses a data directory of the former PGlite store with a message saying what to do', async () => {
    const dir = tempDir('s2sp-embedded-pglite-');
    try {
      fs.writeFileSync(path.join(dir.path, 'PG_VERSION'), '17\n');
      await assert.rejects(
        startEmbeddedPostgres({ dataDir: dir.path }),
        /holds a PGlite database from an earlier version.*move it away or delete it/,
      );
    } finally {
      dir.remove();
    }
  });

  // Overwritten pages must never be read as data: with data checksums the read fails.
  test('a table whose pages were overwritten on disk fails loudly: the data plane answers 500, never rows or 404', async () => {
    const dir = tempDir('s2sp-embedded-corrupt-');
    try {
      const first = await startWeather({ dataDir: dir.path });
      const agent = await connectMcp(first.url);
      const resource = jsonOf(
        await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
      );
      await agent.close();
      await first.close();

      const server = await startEmbeddedPostgres({ dataDir: dir.path });
      // The relation files of every table that holds data (the store's tables may change; all are covered).
      let files: string[];
      try {
        const rows = await query<{ file: string }>(
          server.url,
          `SELECT pg_relation_filepath(c.oid) AS file FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_prisma_migrations' AND pg_relation_size(c.oid) > 0`,
        );
        files = rows.map((row) => path.join(server.clusterDir, row.file));
      } finally {
        await server.stop();
      }
      assert.ok(files.length > 0, 'the resource is stored in at least one table');
      for (const file of files) {
        const pages = fs.statSync(file).size / BLCKSZ;
        const handle = fs.openSync(file, 'r+');
        try {
          // Keep each page header (so the page still looks initialised), overwrite its contents.
          for (let page = 0; page < pages; page += 1)
            fs.writeSync(handle, Buffer.alloc(BLCKSZ - 64, 0x5a), 0, BLCKSZ - 64, page * BLCKSZ + 64);
        } finally {
          fs.closeSync(handle);
        }
      }

      const second = await startWeather({ dataDir: dir.path, port: first.port });
      try {
        const response = await fetchResource(resource.resource_url, { row_ids: [0] });
        assert.equal(response.status, 500, JSON.stringify(response.json));
        assert.equal(response.json.error.code, 'INTERNAL_ERROR');
        assert.doesNotMatch(JSON.stringify(response.json), /checksum|at .*\.js/, 'no internals reach the client');
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });
});
