#!/usr/bin/env node
// Generates the Prisma client (libs/database/src/generated) before tsc.
//
// Runs offline: Prisma 7 insists that a schema-engine binary exists even though
// `generate` never runs it, and the binary cannot be downloaded here, so we point
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file. Migrations use the wasm
// engine instead (libs/database/src/schema-engine.ts).
'use strict';

const path = require('node:path');
const { root, generateWhenStale, runNodeCli } = require('./lib/stamped-generation');

const schemaPath = path.join(root, 'prisma', 'schema.prisma');

generateWhenStale({
  name: 'prisma-generate',
  inputFiles: [schemaPath],
  generatorPackages: ['prisma', '@prisma/client'],
  outputDir: path.join(root, 'libs', 'database', 'src', 'generated'),
  outputMarker: 'client.ts',
  generate() {
    const prismaCli = path.join(
      path.dirname(require.resolve('prisma/package.json', { paths: [root] })),
      'build',
      'index.js',
    );
    runNodeCli('prisma-generate', prismaCli, ['generate', '--schema', schemaPath], {
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || __filename,
      // No update check / telemetry: the build must not touch the network.
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    });
  },
});
