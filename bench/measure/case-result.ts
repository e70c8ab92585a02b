import type { CaseName } from './cases.ts';
import type { Measurement } from './measure.ts';

/** One case measured on the server and both floors. */
export interface CaseResult {
  readonly name: CaseName;
  readonly title: string;
  readonly server: Measurement;
  readonly floor: Measurement;
  readonly preparedFloor: Measurement;
  /** How the server's answer differed from the floor's before the load (empty: the same records and total). */
  readonly differences: readonly string[];
}
