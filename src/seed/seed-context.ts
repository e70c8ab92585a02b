import type { Put, PutNamed } from './put.ts';
import type { SeedClock } from './seed-clock.ts';

/**
 * What every group of the demo seed is handed: `put` to write records of a
 * family by API field names, and the brand they belong to. Each group adds the
 * ids of earlier groups it links to, and returns the ids later groups need.
 */
export interface SeedContext {
  readonly put: Put;
  readonly putNamed: PutNamed;
  readonly clock: SeedClock;
  /** The next id of the seed's sequence, for records that need their id before they are written. */
  readonly newId: () => string;
  /** The brand the group writes for. */
  readonly brandId: string;
}
