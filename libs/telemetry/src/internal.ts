// @s2sp/telemetry/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { DATA_PLANE_SUMMARY } from './http/http-exchange-telemetry';
