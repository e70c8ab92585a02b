/** Name conversions between API fields, columns, paths and titles (CONTRACT.md §1). */

/** `lengthCm` -> `length_cm`, `units-of-measure` -> `units_of_measure`. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/-/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

/** `length_cm` -> `lengthCm`, `units-of-measure` -> `unitsOfMeasure`. */
export function toCamelCase(name: string): string {
  return name.replace(/[-_]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Words a title writes as the trade does, not capitalised. */
const TITLE_WORDS: Readonly<Record<string, string>> = {
  sku: 'SKU', skus: 'SKUs', bom: 'BOM', boms: 'BOMs', of: 'of', and: 'and',
};

/** `units-of-measure` -> `Units of Measure`, `bom-skus` -> `BOM SKUs`. */
export function toTitle(path: string): string {
  return path
    .split('-')
    .map((word, i) => {
      const known = Object.hasOwn(TITLE_WORDS, word) ? TITLE_WORDS[word]! : undefined;
      if (known !== undefined && !(i === 0 && known === word)) return known;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}

/** A field, join or include name in a definition: camelCase, as the record writes it. */
export const NAME_SHAPE = /^[a-z][a-zA-Z0-9]*$/;

/** SQL identifiers come only from definitions, and only in this shape. */
export const SQL_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Quotes a checked identifier for SQL text. */
export function quoteIdentifier(name: string): string {
  if (!SQL_IDENTIFIER.test(name)) throw new Error(`not a safe SQL identifier: ${name}`);
  return `"${name}"`;
}
