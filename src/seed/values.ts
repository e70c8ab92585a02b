/**
 * Small helpers for believable demo values: money as decimal strings,
 * GS1 codes with real check digits.
 */

/** A decimal string with two places, from an amount (rounded to the cent): 4.2 -> '4.20'. */
export function money(amount: number): string {
  return (Math.round(amount * 100) / 100).toFixed(2);
}

/** The GS1 mod-10 check digit of a digit string (EAN-13, SSCC and the like). */
export function gs1CheckDigit(digits: string): string {
  if (!/^[0-9]+$/.test(digits)) throw new Error(`not digits: ${digits}`);
  let sum = 0;
  // Weights 3, 1, 3, ... from the rightmost digit.
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[digits.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return String((10 - (sum % 10)) % 10);
}

/** An EAN-13 barcode under Northwind's GS1 company prefix: 871 9327 + a 5-digit item reference. */
export function ean13(itemReference: number): string {
  const body = `8719327${String(itemReference).padStart(5, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}

/** An 18-digit SSCC for a carton label: extension 0, the company prefix, a 9-digit serial, the check digit. */
export function sscc(serial: number): string {
  const body = `08719327${String(serial).padStart(9, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}
