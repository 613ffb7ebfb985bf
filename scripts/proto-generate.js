#!/usr/bin/env node
// Generates the TypeScript messages, codecs and gRPC service definitions of
// proto/ into libs/contracts/src/generated with buf and ts-proto (options in
// buf.gen.yaml). The gateway and the agents encode and decode with these, so
// the .proto files are the only place a wire type is written.
// Next to them, buf writes the FileDescriptorSets the agents serve through
// gRPC server reflection (DESCRIPTOR_SETS in @s2sp/contracts): the compiler's
// own descriptors, file by file with their imports and custom options, which
// a run-time parser (protobufjs) does not reproduce.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { root, generateWhenStale, runNodeCli } = require('./lib/stamped-generation');
const { bufCli } = require('./lib/buf-cli');

const protoDir = path.join(root, 'proto');
const outputDir = path.join(root, 'libs', 'contracts', 'src', 'generated');
// grpc.health.v1 as grpc-health-check ships it (health/v1/health.proto), the health service the agents serve.
const healthProtoDir = path.join(
  path.dirname(require.resolve('grpc-health-check/package.json', { paths: [root] })),
  'proto',
);

function protoFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? protoFiles(path.join(dir, entry.name))
        : entry.name.endsWith('.proto')
          ? [path.join(dir, entry.name)]
          : [],
    )
    .sort();
}

generateWhenStale({
  name: 'proto-generate',
  inputFiles: [
    ...protoFiles(protoDir),
    ...protoFiles(healthProtoDir),
    path.join(root, 'buf.yaml'),
    path.join(root, 'buf.gen.yaml'),
    __filename,
  ],
  generatorPackages: ['@bufbuild/buf', 'ts-proto', '@bufbuild/protobuf'],
  outputDir,
  outputMarker: path.join('s2sp', 'v1', 'agent.ts'),
  generate() {
    fs.rmSync(outputDir, { recursive: true, force: true });
    runNodeCli('proto-generate', bufCli, ['generate', '--template', 'buf.gen.yaml']);
    // Imports are included (buf's default), so google/protobuf/*.proto are in the set too.
    runNodeCli('proto-generate', bufCli, [
      'build',
      '--as-file-descriptor-set',
      '-o',
      path.join(outputDir, 's2sp.binpb'),
    ]);
    runNodeCli('proto-generate', bufCli, [
      'build',
      healthProtoDir,
      '--as-file-descriptor-set',
      '-o',
      path.join(outputDir, 'grpc-health.binpb'),
    ]);
  },
});
