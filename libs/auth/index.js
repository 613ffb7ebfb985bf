// Runtime entry of the @s2sp/auth workspace package: the compiled library.
// (TypeScript reads src/ through the path alias in tsconfig.json.)
module.exports = require('../../dist/libs/auth/src/index.js');
