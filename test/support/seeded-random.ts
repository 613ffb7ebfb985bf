/** Deterministic PRNG so property tests are reproducible. */
export { mulberry32 as seededRandom } from '../../libs/platform/src/mulberry32';
