import { randomInt } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';

/**
 * The seed plumbing of the fuzz tests: every property runs twice, once with a
 * fixed seed (CI reproduces it exactly) and once with a seed fresh for this
 * run, printed to the log and named in the test title, so a failure found by
 * chance can be replayed:
 *
 *   FUZZ_SEED=<seed> npm test -- --grep 'fuzz:'   replays that run (a sweep over
 *                    every family gives family i the seed plus i, from the same FUZZ_SEED)
 *   FUZZ_PATH=<path> with FUZZ_SEED and --grep for one property drawn at random:
 *                    replays its shrunk counterexample alone (the report prints both)
 *   FUZZ_SCALE=<n>   multiplies every property's number of runs (a deeper local search)
 *   FUZZ_SEEDS=random   runs the run's seed alone, without the fixed one: the CI
 *                    gate's embedded run, beside its Postgres run that runs the fixed
 *                    seed's cases (the same on every run) and checks what they reach
 *
 * The generated data (brands, ids, cursors) is planted again on each run, so a
 * replay runs the same cases against records with other ids; the cases refer
 * to records by position, not by id, so they stay the same cases.
 */

export const FIXED_SEED = 20_260_307;

function seedFromEnvironment(): number | null {
  const text = process.env.FUZZ_SEED;
  if (text === undefined || text === '') return null;
  if (!/^-?\d+$/.test(text)) throw new Error(`FUZZ_SEED must be an integer, not '${text}'`);
  return Number(text);
}

const replayed = seedFromEnvironment();
/** This run's second seed: FUZZ_SEED when given, a fresh one otherwise. */
export const RUN_SEED = replayed ?? randomInt(1, 2 ** 31 - 1);
const RUN_KIND = replayed === null ? 'random' : 'replayed';
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? 1) || 1);
const PATH = process.env.FUZZ_PATH || undefined;
const SEEDS = process.env.FUZZ_SEEDS ?? 'both';
if (SEEDS !== 'both' && SEEDS !== 'random') throw new Error(`FUZZ_SEEDS must be both or random, not '${SEEDS}'`);

/** The seeds each property runs with: the fixed one (unless FUZZ_SEEDS=random), then the run's. */
const seeds = (): (readonly ['fixed' | typeof RUN_KIND, number])[] =>
  SEEDS === 'random' ? [[RUN_KIND, RUN_SEED]] : [['fixed', FIXED_SEED], [RUN_KIND, RUN_SEED]];

console.log(`fuzz seed ${RUN_SEED} (${RUN_KIND}; fixed seed ${FIXED_SEED}); replay with FUZZ_SEED=${RUN_SEED}`);

/** Shrinking replays requests: a failure shrinks at most this many steps, so a failing run stays short. */
const MAX_SHRINKS = 60;
/** Longer lines of a report (a 10,000-character counterexample) are cut: seed and path replay it whole. */
const MAX_REPORT_LINE = 3000;

/** fast-check's report (seed, path, counterexample, the error), with very long lines cut, and its hints and its own stack frames left out. */
function report<T>(details: fc.RunDetails<T>): string {
  return (fc.defaultReportMessage(details) ?? '')
    .split('\n')
    .filter((line) => !line.startsWith('Hint: ') && !line.includes('node_modules/fast-check/'))
    .map((line) => (line.length <= MAX_REPORT_LINE ? line : `${line.slice(0, MAX_REPORT_LINE)}... (${line.length} characters)`))
    .join('\n');
}

/** What a property checks: generated cases, and a check that names the outcome it saw (a status, an error code). */
export interface Fuzzed<T> {
  readonly arbitrary: fc.Arbitrary<T>;
  readonly predicate: (value: T) => Promise<string | void>;
}

/**
 * Every outcome in `outcomes` must have been seen on a run that passed: a
 * generator that drifted (say, so that no case gets past validation any more)
 * fails loudly instead of passing on trivial cases. Checked on the fixed
 * seed, whose cases are the same on every run: what a generator reaches is a
 * fact about the generator, and a fresh seed may by chance miss a rare
 * outcome (the changes feed's 304 came to a few cases in 200, and one CI run
 * saw none) without anything being wrong.
 */
function expectCoverage({ title, seen, outcomes }: { title: string; seen: ReadonlySet<string>; outcomes: readonly string[] }): void {
  const missing = outcomes.filter((outcome) => !seen.has(outcome));
  expect(missing, `${title}: no case was answered ${missing.join(', ')} (seen: ${[...seen].join(', ')}); the generators no longer reach it`).to.deep.equal([]);
}

async function checkOnce<T>({ fuzzed: { arbitrary, predicate }, seen, parameters }: { fuzzed: Fuzzed<T>; seen: Set<string>; parameters: fc.Parameters<[T]> }): Promise<fc.RunDetails<[T]>> {
  const property = fc.asyncProperty(fc.limitShrink(arbitrary, MAX_SHRINKS), async (value) => {
    const outcome = await predicate(value);
    if (outcome) seen.add(outcome);
  });
  return fc.check(property, { ...parameters, includeErrorInReport: true });
}

/**
 * Declares the property as two mocha tests, fixed seed and run seed. `build`
 * is called inside the test, after the file's `before` hooks planted its data.
 * On failure the assertion message is fast-check's report: seed, path,
 * counterexample (shrunk) and the error it raised.
 */
export function fuzzIt<T>(title: string, { numRuns, outcomes = [], build }: {
  numRuns: number;
  outcomes?: readonly string[];
  build: () => Fuzzed<T>;
}): void {
  for (const [kind, seed] of seeds()) {
    it(`${title} [${kind} seed ${seed}]`, async () => {
      const runs = numRuns * SCALE;
      const replaying = kind !== 'fixed' && PATH !== undefined;
      const seen = new Set<string>();
      const details = await checkOnce({ fuzzed: build(), seen, parameters: { seed, numRuns: runs, ...(replaying ? { path: PATH } : {}) } });
      if (details.failed) {
        expect.fail(`${title}\n${report(details)}\nreplay: FUZZ_SEED=${seed} FUZZ_PATH=${details.counterexamplePath ?? ''} --grep '${title.replace(/'/g, '.')}'`);
      }
      if (replaying) return;
      // A property that ran nothing proves nothing.
      expect(details.numRuns, 'runs made').to.equal(runs);
      if (kind === 'fixed') expectCoverage({ title, seen, outcomes });
    });
  }
}

/**
 * Runs one property per item (each family, say), so a sweep visits every item
 * on every run; item i runs with the seed plus i, and a failure names the
 * item and that seed (FUZZ_SEED takes the base seed).
 */
export function fuzzEach<I, T>(title: string, { items, label, numRuns, outcomes = [], build }: {
  items: () => readonly I[];
  label: (item: I) => string;
  numRuns: number;
  outcomes?: readonly string[];
  build: (item: I) => Fuzzed<T>;
}): void {
  for (const [kind, seed] of seeds()) {
    it(`${title} [${kind} seed ${seed}]`, async () => {
      const runs = numRuns * SCALE;
      const failures: string[] = [];
      const seen = new Set<string>();
      const all = items();
      expect(all, 'items to visit').to.not.be.empty;
      for (const [index, item] of all.entries()) {
        const details = await checkOnce({ fuzzed: build(item), seen, parameters: { seed: seed + index, numRuns: runs } });
        if (details.failed) failures.push(`${label(item)} (item ${index}): ${report(details)}`);
        else expect(details.numRuns, `runs made for ${label(item)}`).to.equal(runs);
      }
      if (failures.length > 0) {
        expect.fail(`${title}: ${failures.length} of ${all.length} failed (replay: FUZZ_SEED=${seed})\n\n${failures.join('\n\n')}`);
      }
      if (kind === 'fixed') expectCoverage({ title, seen, outcomes });
    });
  }
}
