import { envOptionalList } from '@s2sp/platform/internal';
import type { S2spModuleOptions } from './s2sp-options';

/** Environment variables of S2spModule's DNS-rebinding allowlists (comma-separated). */
export const S2SP_ALLOWED_HOSTS_ENV = 'S2SP_ALLOWED_HOSTS';
export const S2SP_ALLOWED_ORIGINS_ENV = 'S2SP_ALLOWED_ORIGINS';

/**
 * `allowedHosts` / `allowedOrigins` from S2SP_ALLOWED_HOSTS and
 * S2SP_ALLOWED_ORIGINS; an unset variable leaves its option out (the
 * defaults apply). S2spModule validates the entries.
 * @public
 */
export function allowedHostsFromEnv(): Pick<S2spModuleOptions, 'allowedHosts' | 'allowedOrigins'> {
  const hosts = envOptionalList(S2SP_ALLOWED_HOSTS_ENV);
  const origins = envOptionalList(S2SP_ALLOWED_ORIGINS_ENV);
  return { ...(hosts ? { allowedHosts: hosts } : {}), ...(origins ? { allowedOrigins: origins } : {}) };
}
