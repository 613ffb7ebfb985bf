// @s2sp/database/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { type StoredJson } from './stored-json';
