import { DATA_PLANE_AUTH_POLICIES, type DataPlaneAuthPolicy } from '../auth/data-plane-auth-policy';
import { envChoice } from '@s2sp/platform/internal';

export const S2SP_DATA_PLANE_AUTH_ENV = 'S2SP_DATA_PLANE_AUTH';

/**
 * The S2spModule `dataPlaneAuth` from S2SP_DATA_PLANE_AUTH (`capability` or `bearer`), `fallback` when unset.
 * @public
 */
export function dataPlaneAuthFromEnv(fallback: DataPlaneAuthPolicy): DataPlaneAuthPolicy {
  return envChoice(S2SP_DATA_PLANE_AUTH_ENV, DATA_PLANE_AUTH_POLICIES, fallback);
}
