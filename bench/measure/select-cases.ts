import { didYouMean } from '../../src/engine/definition/did-you-mean.ts';
import { CASE_NAMES, type CaseName } from './cases.ts';
import { COMPRESSION_CASE_NAMES, type CompressionCaseName } from './compression-cases.ts';
import { FEED_CASE_NAMES, type FeedCaseName } from './feed-cases.ts';
import { WRITE_LOAD_NAMES, type WriteLoadName } from './write-loads.ts';

/** Every name `--cases` takes: the floor's cases, the feed's, the write loads the floor's are measured under, then compression. */
export const ALL_CASE_NAMES: readonly string[] = Object.freeze([...CASE_NAMES, ...FEED_CASE_NAMES, ...WRITE_LOAD_NAMES, ...COMPRESSION_CASE_NAMES]);

/** What `--cases` selected, each kind in its table order. */
export interface SelectedCases {
  readonly cases: CaseName[];
  readonly feed: FeedCaseName[];
  readonly writeLoads: WriteLoadName[];
  readonly compression: CompressionCaseName[];
}

/**
 * The cases named (all of them for null), each kind in table order; an
 * unknown name is an error with a suggestion.
 */
export function selectCases(names: readonly string[] | null): SelectedCases {
  if (names === null) return { cases: [...CASE_NAMES], feed: [...FEED_CASE_NAMES], writeLoads: [...WRITE_LOAD_NAMES], compression: [...COMPRESSION_CASE_NAMES] };
  for (const name of names) {
    if (!ALL_CASE_NAMES.includes(name)) {
      throw new Error(`no case '${name}'${didYouMean(name, ALL_CASE_NAMES)}; the cases are ${ALL_CASE_NAMES.join(', ')}`);
    }
  }
  const picked = <T extends string>(all: readonly T[]): T[] => all.filter((name) => names.includes(name));
  return { cases: picked(CASE_NAMES), feed: picked(FEED_CASE_NAMES), writeLoads: picked(WRITE_LOAD_NAMES), compression: picked(COMPRESSION_CASE_NAMES) };
}

