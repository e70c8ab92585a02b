/** A whole number as the reports print it: rounded, with thousands separators (`12,345`). */
export const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');
