// Runtime entry of the @s2sp/json-rpc workspace package: the compiled library.
module.exports = require('../../dist/libs/json-rpc/src/index.js');
