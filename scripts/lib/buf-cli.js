// Path of the buf CLI installed with the @bufbuild/buf devDependency. Its bin/buf
// is a node script that runs the platform binary, so it works without the
// package's postinstall step.
'use strict';

const path = require('node:path');
const { root } = require('./stamped-generation');

const bufCli = path.join(path.dirname(require.resolve('@bufbuild/buf/package.json', { paths: [root] })), 'bin', 'buf');

module.exports = { bufCli };
