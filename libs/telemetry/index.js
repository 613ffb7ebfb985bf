// Runtime entry of the @s2sp/telemetry workspace package: the compiled library.
// (TypeScript reads src/ through the path alias in tsconfig.json.)
module.exports = require('../../dist/libs/telemetry/src/index.js');
