/** A whole number as the reports print it: rounded, with thousands separators (`12,345`). */
export const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Milliseconds as the reports print them: two decimals under 10, one above; `n/a` for NaN. */
export const milliseconds = (n: number): string => (Number.isNaN(n) ? 'n/a' : n < 10 ? n.toFixed(2) : n.toFixed(1));

/** A ratio as the reports print it (`1.25×`), `n/a` where unknown. */
export const times = (n: number | null): string => (n === null || Number.isNaN(n) ? 'n/a' : `${n.toFixed(2)}×`);

/** Bytes as whole megabytes, `n/a` where unknown. */
export const megabytes = (bytes: number | null): string => (bytes === null ? 'n/a' : (bytes / 1024 / 1024).toFixed(0));
