// Runtime entry of the @s2sp/platform workspace package: the compiled library.
module.exports = require('../../dist/libs/platform/src/index.js');
