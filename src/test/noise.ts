import { seededRandom } from '../engine/mesh/generators';

/** Seeded standard normal deviates (Box-Muller over seededRandom): a test reads the same numbers every run. */
export function gaussian(seed: number): () => number {
  const rand = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}
