// @s2sp/protocol — what S2SP's parties agree on, without a framework: used by @s2sp/core (servers)
// and @s2sp/agent (agents).
export { S2SP_META } from './s2sp-meta-keys';
export {
  S2SP_CONSUMER_PARAMETERS,
  S2SP_RESOURCE_EXTENSION_PARAMETERS,
  S2SP_RESOURCE_PARAMETERS,
} from './s2sp-tool-parameters';
export { isRow, type Row, ROW_ID, setColumn } from './row';
export { type ColumnarRows, ColumnarRowsError, rowsFromColumnar, toColumnar } from './columnar-rows';
export { BpeTokenCounter, type BytePairRanks } from './bpe-token-counter';
export { countTokens, TOKEN_ENCODING, warmTokenCounter } from './token-count';
export { loadOptionalPackage, OptionalPackageMissingError } from './optional-package';
