// Runtime entry of the @s2sp/database workspace package: the compiled library.
module.exports = require('../../dist/libs/database/src/index.js');
