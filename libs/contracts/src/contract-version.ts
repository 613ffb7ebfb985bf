/**
 * Version of the S2SP contract: the gRPC packages under proto/ and the
 * gateway's JSON-RPC methods built on them. Semantic versioning: a change a
 * client built for an older version could notice as a break bumps the major
 * version and goes into a new proto package (s2sp.v2 for 2.x), served next to
 * the old one; additions bump the minor; fixes to documentation or
 * descriptions the patch. Every change is recorded in proto/CHANGELOG.md.
 *
 * This is the one definition of the contract as served (its newest package's
 * version). Each package keeps the version it was last released with
 * ({@link PACKAGE_CONTRACT_VERSIONS}); each .proto file restates its
 * package's in the {@link CONTRACT_VERSION_OPTION} file option (a descriptor
 * has no other place for it); test/contracts/contract-version.test.ts keeps
 * them equal.
 * @public
 */
export const CONTRACT_VERSION = '2.3.0';

/**
 * The contract version each proto package was last released with.
 * @public
 */
export const PACKAGE_CONTRACT_VERSIONS: Readonly<Record<string, string>> = Object.freeze({
  's2sp.v1': '1.0.0',
  's2sp.v2': '2.3.0',
});

/** The proto package that declares {@link CONTRACT_VERSION_OPTION}. */
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
