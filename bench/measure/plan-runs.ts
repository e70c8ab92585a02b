import type { CaseName } from './cases.ts';

/** Who answers: the server, the floor with its SQL unprepared, the floor with its SQL prepared as the server prepares it. */
export const SIDES = ['server', 'floor', 'preparedFloor'] as const;
export type Side = (typeof SIDES)[number];

/**
 * One load run: which case, on which side, for how long, and whether a
 * warm-up goes first. Generic so that `npm run bench:platformatic`, whose
 * sides and cases are others, lays out its runs the same way.
 */
export interface PlannedRun<S extends string = Side, C extends string = CaseName> {
  readonly case: C;
  readonly on: S;
  readonly seconds: number;
  readonly warmUp: boolean;
}

/**
 * Cases measured together, their runs interleaved, so that what a target
 * compares is measured side by side in time rather than a minute apart:
 * page 2 and the deep page (their latencies), the deep page newest first
 * beside the deep page in the default order, and the big brand's first page
 * newest first beside the same page in the default order (their ratios to
 * the floor), and a get with an unrestricted key beside the same get with a
 * restricted one.
 */
export const MEASURED_TOGETHER: readonly (readonly CaseName[])[] = [
  ['get-by-id', 'get-by-id-restricted'], ['page-2', 'page-2000', 'newest-page-2000'], ['first-page-big', 'newest-first-page'],
];

/** The selected cases in groups measured together, in table order. */
export function groupCases(names: readonly CaseName[]): CaseName[][] {
  const groups: CaseName[][] = [];
  for (const name of names) {
    const together = MEASURED_TOGETHER.find((group) => group.includes(name));
    const open = together ? groups.find((group) => together.includes(group[0]!)) : undefined;
    if (open) open.push(name);
    else groups.push([name]);
  }
  return groups;
}

/**
 * The runs of a group of one or two cases on the sides given, in that order.
 * Each side's time for a case is split in two halves, ordered so that every
 * half has its mirror image: the sides go A B C C B A, and within a side the
 * cases go C D ... D C. Load that drifts over the group (other work on the
 * machine, the database's caches) so weighs alike on every side and on both
 * cases. Each case warms up on each side before its first run there. Runs are
 * whole seconds (autocannon ends a run on a one-second tick), so with one
 * second each case runs once a side, in the order A:C A:D B:D B:C ...
 */
export function planRuns<S extends string = Side, C extends string = CaseName>({ durationSeconds, sides, cases }: {
  durationSeconds: number;
  sides: readonly S[];
  cases: readonly C[];
}): PlannedRun<S, C>[] {
  if (cases.length === 0) throw new Error('a group needs a case');
  if (sides.length === 0) throw new Error('a group needs a side');
  const reversed = [...cases].reverse();
  const runs = (on: S, order: readonly C[], seconds: number, warmUp: boolean): PlannedRun<S, C>[] =>
    order.map((name) => ({ case: name, on, seconds, warmUp }));
  if (durationSeconds < 2) {
    return sides.flatMap((on, i) => runs(on, i % 2 === 0 ? cases : reversed, durationSeconds, true));
  }
  const firstHalf = Math.ceil(durationSeconds / 2);
  const secondHalf = durationSeconds - firstHalf;
  return [
    ...sides.flatMap((on) => runs(on, cases, firstHalf, true)),
    ...[...sides].reverse().flatMap((on) => runs(on, reversed, secondHalf, false)),
  ];
}

/** The sides in the order group `index` runs them: rotated from group to group, so no side always goes first. */
export function sidesInTurn<S extends string>(sides: readonly S[], index: number): S[] {
  const shift = index % sides.length;
  return [...sides.slice(shift), ...sides.slice(0, shift)];
}
