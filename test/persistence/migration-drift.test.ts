import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolvePrismaPaths } from '../../libs/database/src/prisma-paths';
import { createMigration, diffMigrationsToSchema } from '../../libs/database/src/schema-engine';

describe('migration drift', () => {
  test('the committed migrations produce exactly prisma/schema.prisma', async () => {
    const diff = await diffMigrationsToSchema();
    assert.equal(
      diff,
      '',
      `schema.prisma changed without a migration; run: npm run build && node dist/scripts/migration-create.js <name>\n${diff}`,
    );
  });

  test('a schema change is detected, and createMigration writes the migration that resolves it', async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 's2sp-prisma-'));
    try {
      fs.cpSync(resolvePrismaPaths().prismaDir, copy, { recursive: true });
      const schemaPath = path.join(copy, 'schema.prisma');
      const schema = fs.readFileSync(schemaPath, 'utf8');
      const changed = schema.replace(/^(\s*caller\s+String\?.*)$/m, '$1\n  driftProbe Int? @map("drift_probe")');
      assert.notEqual(changed, schema, 'test setup: the caller field was not found in schema.prisma');
      fs.writeFileSync(schemaPath, changed);

      // Each diff replays the migrations on a scratch PGlite (seconds to start): keep their number low.
      const created = await createMigration('Add drift probe', {
        prismaDir: copy,
        now: new Date(Date.UTC(2099, 0, 2, 3, 4, 5)),
      });
      assert.ok(created, 'the changed schema must produce a migration');
      assert.equal(created.name, '20990102030405_add_drift_probe');
      assert.match(created.sql, /ALTER TABLE "s2sp_resource" ADD COLUMN\s+"drift_probe" INTEGER/);
      assert.equal(fs.readFileSync(path.join(copy, 'migrations', created.name, 'migration.sql'), 'utf8'), created.sql);
      assert.equal(await diffMigrationsToSchema({ prismaDir: copy }), '', 'the new migration resolves the drift');
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
