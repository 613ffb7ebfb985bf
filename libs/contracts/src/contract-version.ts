/**
 * Version of the S2SP contract: the gRPC package s2sp.v1 (proto/s2sp/v1) and
 * the gateway's JSON-RPC methods built on it. Semantic versioning: a change a
 * client built for an older version could notice as a break bumps the major
 * version (and, for the protos, the package: s2sp.v2); additions bump the
 * minor; fixes to documentation or descriptions the patch. Every change is
 * recorded in proto/CHANGELOG.md.
 *
 * This is the one definition. Each s2sp.v1 .proto file restates it in its
 * {@link CONTRACT_VERSION_OPTION} file option (a descriptor has no other place
 * for it); test/contracts/contract-version.test.ts keeps the two equal.
 */
export const CONTRACT_VERSION = '1.0.0';

/** The proto package {@link CONTRACT_VERSION} versions. */
export const CONTRACT_PACKAGE = 's2sp.v1';

/**
 * The custom file option declared in proto/s2sp/v1/contract.proto (an
 * extension of google.protobuf.FileOptions) that carries the contract version
 * in each s2sp.v1 file's descriptor.
 */
export const CONTRACT_VERSION_OPTION = Object.freeze({
  /** Fully qualified name, as written in a .proto file between parentheses. */
  name: 's2sp.v1.contract_version',
  /** Field number in google.protobuf.FileOptions. */
  number: 50000,
});
