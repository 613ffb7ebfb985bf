import { S2spToolError } from '../protocol/s2sp-error';
import type { DataPlaneCredential } from './data-plane-credentials.service';

/**
 * A 401 from the data plane means the resource server runs the `bearer` policy
 * and did not take what this consumer sent: the refusal gains what was sent,
 * why, and what to change. Any other error is returned as it is.
 */
export function explainUnauthenticatedFetch(error: unknown, origin: string, credential: DataPlaneCredential): unknown {
  // DataPlaneClient reports the status only in its message: "… refused the fetch (HTTP 401)…".
  if (!(error instanceof S2spToolError) || error.code !== 'FETCH_REFUSED' || !error.message.includes('(HTTP 401)'))
    return error;
  const sent =
    credential.authorization !== undefined
      ? `It did not accept the caller's token narrowed for audience "${credential.audience}": check that this is the audience that server accepts.`
      : credential.withoutTokenBecause === 'no-audience'
        ? `The fetch carried no token because no audience is configured for ${origin} (S2spModule resourceAudiences).`
        : 'The fetch carried no token because this call has no verified caller to delegate (e.g. MCP over stdio).';
  return new S2spToolError(
    `${error.message} That resource server requires a bearer token on its data plane (dataPlaneAuth "bearer"). ${sent} ` +
      'A resource server under dataPlaneAuth "capability" serves its resource_urls without one.',
    'FETCH_REFUSED',
  );
}
