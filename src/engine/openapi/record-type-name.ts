import { toCamelCase } from '../definition/naming.ts';

/** `units-of-measure` -> `UnitOfMeasure`, `dimension-curve-axes` -> `DimensionCurveAxis`: a record's schema name. */
export function recordTypeName(path: string): string {
  const words = path.split('-');
  // "units-of-measure": the plural is the word before "of".
  const pluralIndex = words.indexOf('of') > 0 ? words.indexOf('of') - 1 : words.length - 1;
  words[pluralIndex] = singular(words[pluralIndex]!);
  return pascalCase(words.join('-'));
}

/** `units-of-measure` -> `UnitsOfMeasure`. */
export function pascalCase(path: string): string {
  const camel = toCamelCase(path);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

function singular(word: string): string {
  if (word.endsWith('axes')) return `${word.slice(0, -4)}axis`;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
