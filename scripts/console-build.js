#!/usr/bin/env node
// Builds the gateway's web console (libs/gateway/console/src) into libs/gateway/console/dist,
// which @s2sp/gateway ships and serves:
// type-checks it, bundles src/main.tsx with Preact into one ES module (no CDN, nothing
// fetched at run time), and copies index.html, console.css and favicon.svg. Run by `npm run build`.
'use strict';
const { copyFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');

const root = join(__dirname, '..');
const source = join(root, 'libs', 'gateway', 'console');
const out = join(source, 'dist');

const typeCheck = spawnSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', join(source, 'tsconfig.json')],
  { stdio: 'inherit' },
);
if (typeCheck.status !== 0) process.exit(typeCheck.status ?? 1);

mkdirSync(out, { recursive: true });
esbuild
  .build({
    entryPoints: [join(source, 'src', 'main.tsx')],
    outfile: join(out, 'console.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  })
  .then(() => {
    for (const file of ['index.html', 'console.css', 'favicon.svg']) copyFileSync(join(source, file), join(out, file));
  })
  .catch((error) => {
    console.error(`console-build: ${error.message}`);
    process.exit(1);
  });
