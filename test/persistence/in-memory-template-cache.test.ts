// In-memory databases load a migrated template kept between processes
// (libs/database/src/template-cache.ts): each case runs fresh processes, since a
// process keeps the template it first got.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test, type TestContext } from 'node:test';
import { tempDir } from '../support/temp-dir';

const run = promisify(execFile);

/** Opens an in-memory database in a new process with this cache directory; returns what it saw. */
async function openInNewProcess(
  templateCacheDir: string | false,
): Promise<{ appliedMigrations: string[]; tables: number }> {
  const script = `
    const { openS2spDatabase } = require(${JSON.stringify(require.resolve('@s2sp/database'))});
    openS2spDatabase({ dataDir: ':memory:', templateCacheDir: ${JSON.stringify(templateCacheDir)} }).then(async (db) => {
      const [{ count }] = await db.client.$queryRaw\`SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = current_schema()\`;
      console.log(JSON.stringify({ appliedMigrations: db.appliedMigrations, tables: count }));
      await db.close();
    });`;
  const { stdout } = await run(process.execPath, ['-e', script]);
  return JSON.parse(stdout);
}

function temporary(t: TestContext): string {
  const dir = tempDir('s2sp-template-cache-');
  t.after(dir.remove);
  return dir.path;
}

describe('the in-memory template cache', () => {
  test('the first process stores the template; the next loads it and gets the same migrated, empty database; a broken one is dropped', async (t) => {
    const dir = join(temporary(t), 'cache');
    const first = await openInNewProcess(dir);
    const files = readdirSync(dir).sort();
    assert.equal(files.length, 2, files.join());
    assert.match(files[0], /^[0-9a-f]{32}\.json$/);
    assert.match(files[1], /^[0-9a-f]{32}\.tgz$/);
    assert.ok(first.appliedMigrations.length > 0);
    assert.ok(first.tables > 1);

    const second = await openInNewProcess(dir);
    assert.deepEqual(second, first);
    assert.deepEqual(readdirSync(dir).sort(), files);

    // A dump PGlite cannot load is removed, and the database made anyway.
    writeFileSync(join(dir, files[1]), 'not a tar file');
    assert.deepEqual(await openInNewProcess(dir), first);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('a directory others may write to is not used: no one else can plant a template', async (t) => {
    const dir = join(temporary(t), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const opened = await openInNewProcess(dir);
    assert.ok(opened.tables > 1);
    assert.deepEqual(readdirSync(dir), []);
  });
});
