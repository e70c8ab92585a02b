import { median } from './soak-stats.ts';

/**
 * Whether memory stayed flat over a soak, judged from samples taken every
 * second or so. A short run on a noisy machine cannot fit a trend line: the
 * heap is a GC sawtooth and V8 grows and keeps pages as it pleases. So:
 *
 * 1. Drop the warm-up (the first `warmupFraction` of the samples, at least one):
 *    JIT, caches, pools and the key cache fill there.
 * 2. Split the rest into thirds; the first third is still settling and is
 *    only reported. Compare the median of the last third with the median of
 *    the middle third: medians ignore where in the sawtooth a sample fell.
 * 3. Flat when the growth is at most `max(relative × middle, absolute)`.
 *
 * A leak of a few KB per request grows the last third past the middle one
 * by far more than the allowance at a steady rate; a heap that breathes
 * does not. Heap used is judged tightly (20% or 16 MB); RSS loosely (50% or
 * 64 MB), since V8 and the allocator keep pages they freed.
 */
export interface FlatnessRule {
  readonly relative: number;
  readonly absoluteBytes: number;
  readonly warmupFraction: number;
  /** Fewer samples after warm-up than this: not enough to judge, which passes as "inconclusive". */
  readonly minSamples: number;
}

export const HEAP_RULE: FlatnessRule = Object.freeze({ relative: 0.2, absoluteBytes: 16 * 1024 * 1024, warmupFraction: 0.2, minSamples: 6 });
export const RSS_RULE: FlatnessRule = Object.freeze({ relative: 0.5, absoluteBytes: 64 * 1024 * 1024, warmupFraction: 0.2, minSamples: 6 });

export type FlatnessState = 'flat' | 'growing' | 'inconclusive';

export interface Flatness {
  readonly state: FlatnessState;
  /** Median of the middle third after warm-up, in bytes. */
  readonly middleMedian: number | null;
  /** Median of the last third, in bytes. */
  readonly lastMedian: number | null;
  /** lastMedian − middleMedian. */
  readonly growthBytes: number | null;
  readonly allowedBytes: number | null;
  readonly samples: number;
}

export function judgeFlatness(samples: readonly number[], rule: FlatnessRule): Flatness {
  const warmup = Math.max(1, Math.ceil(samples.length * rule.warmupFraction));
  const settled = samples.slice(warmup);
  const third = Math.floor(settled.length / 3);
  if (settled.length < rule.minSamples || third < 1) {
    return Object.freeze({ state: 'inconclusive', middleMedian: null, lastMedian: null, growthBytes: null, allowedBytes: null, samples: samples.length });
  }
  const middleMedian = median(settled.slice(third, settled.length - third))!;
  const lastMedian = median(settled.slice(settled.length - third))!;
  const allowedBytes = Math.max(rule.relative * middleMedian, rule.absoluteBytes);
  const growthBytes = lastMedian - middleMedian;
  return Object.freeze({
    state: growthBytes > allowedBytes ? 'growing' : 'flat',
    middleMedian,
    lastMedian,
    growthBytes,
    allowedBytes,
    samples: samples.length,
  });
}
