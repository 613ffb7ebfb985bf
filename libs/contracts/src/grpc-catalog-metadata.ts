/**
 * Response-header keys with which the agents describe their catalog to the
 * gateway, so it can keep what it fetched while the catalog stays the same.
 * @internal
 */
export const GRPC_CATALOG_METADATA = {
  /**
   * A fingerprint of the MCP servers' resources, resource templates and prompts
   * (the content of s2sp.v2 ListSurfaces, all servers): the same surfaces give
   * the same value on every agents replica. Sent with ListTools and ListSurfaces.
   */
  SURFACES_FINGERPRINT: 'x-s2sp-surfaces-fingerprint',
} as const;
