#!/usr/bin/env node
// Records the contracts in proto/ as the last released contract: a buf image
// (every file descriptor, with imports and source info) in
// proto/releases/s2sp-contract.binpb. `npm test` runs `buf breaking` against it, so
// run this (`npm run contracts:release`) when a contract version is released,
// and commit the image with the release; between releases it stays as it is.
//
// It refuses to record protos that fail `buf lint` or that break the image
// already recorded: rewriting the image is not a way to make `buf breaking`
// pass. A deliberately incompatible contract belongs in a new package
// (s2sp.v2), next to s2sp.v1.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { root, runNodeCli } = require('./lib/stamped-generation');
const { bufCli } = require('./lib/buf-cli');

const image = path.join('proto', 'releases', 's2sp-contract.binpb');

runNodeCli('contracts-release', bufCli, ['lint']);
if (fs.existsSync(path.join(root, image))) {
  runNodeCli('contracts-release', bufCli, ['breaking', 'proto', '--against', image]);
}
fs.mkdirSync(path.join(root, path.dirname(image)), { recursive: true });
runNodeCli('contracts-release', bufCli, ['build', '--output', image]);
console.error(`contracts-release: wrote ${image}`);
