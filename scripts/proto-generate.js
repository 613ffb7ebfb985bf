#!/usr/bin/env node
// Generates the TypeScript messages, codecs and gRPC service definitions of
// proto/ into libs/contracts/src/generated with buf and ts-proto (options in
// buf.gen.yaml). The gateway and the agents encode and decode with these, so
// the .proto files are the only place a wire type is written.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { root, generateWhenStale, runNodeCli } = require('./lib/stamped-generation');
const { bufCli } = require('./lib/buf-cli');

const protoDir = path.join(root, 'proto');
const outputDir = path.join(root, 'libs', 'contracts', 'src', 'generated');

function protoFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? protoFiles(path.join(dir, entry.name)) : entry.name.endsWith('.proto') ? [path.join(dir, entry.name)] : []))
    .sort();
}

generateWhenStale({
  name: 'proto-generate',
  inputFiles: [...protoFiles(protoDir), path.join(root, 'buf.yaml'), path.join(root, 'buf.gen.yaml')],
  generatorPackages: ['@bufbuild/buf', 'ts-proto', '@bufbuild/protobuf'],
  outputDir,
  outputMarker: path.join('s2sp', 'v1', 'agent.ts'),
  generate() {
    fs.rmSync(outputDir, { recursive: true, force: true });
    runNodeCli('proto-generate', bufCli, ['generate', '--template', 'buf.gen.yaml']);
  },
});
