// Runtime entry of the @s2sp/contracts workspace package: the compiled library.
module.exports = require('../../dist/libs/contracts/src/index.js');
