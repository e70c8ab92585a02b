/** The ratio of two measures, null when either is unknown or the divisor is zero. */
export const ratio = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined || b === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? null : a / b;
