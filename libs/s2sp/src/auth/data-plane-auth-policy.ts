/**
 * Who may fetch a resource_url from the data plane (docs/auth.md, "Data-plane auth policy"):
 * - `capability`: the 256-bit single-use token in the URL is the whole credential, as the
 *   S2SP design defines it. Any HTTP client holding the URL may fetch it once; no bearer
 *   token is asked for and the resource is bound to no caller or consumer.
 * - `bearer`: the fetch must also carry a bearer token for this server holding
 *   `s2sp:data:read`; a resource issued to a caller is served only to that caller,
 *   through the consumer the agent named, with the resource tool's scopes.
 * @public
 */
export type DataPlaneAuthPolicy = 'capability' | 'bearer';

export const DATA_PLANE_AUTH_POLICIES: readonly DataPlaneAuthPolicy[] = ['capability', 'bearer'];

/** Caller authentication on the data plane is the safer default: a leaked resource_url alone fetches nothing. */
export const DEFAULT_DATA_PLANE_AUTH: DataPlaneAuthPolicy = 'bearer';

export function isDataPlaneAuthPolicy(value: unknown): value is DataPlaneAuthPolicy {
  return typeof value === 'string' && (DATA_PLANE_AUTH_POLICIES as readonly string[]).includes(value);
}
