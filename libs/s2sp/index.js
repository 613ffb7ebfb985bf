// Runtime entry of the @s2sp/core workspace package: the compiled library.
// (TypeScript reads src/ through the path alias in tsconfig.json.)
module.exports = require('../../dist/libs/s2sp/src/index.js');
