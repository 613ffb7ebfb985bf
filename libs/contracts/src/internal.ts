// @s2sp/contracts/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { GRPC_CATALOG_METADATA } from './grpc-catalog-metadata';
export { jsonObjectOr, toJsonObject } from './plain-json';
export {
  PREDICATE_OPS,
  evaluatePredicate,
  parsePredicate,
  type ComparisonPredicate,
  type Predicate,
  type PredicateOp,
} from './predicate';
export { PROTO_ROOT } from './proto-path';
export { type RecoveryHintValue } from './recovery-hint';
export { timestampToMs, toTimestamp, type ProtoTimestamp } from './timestamp';
