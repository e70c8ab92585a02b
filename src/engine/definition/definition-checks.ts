import { DefinitionError } from './definition-error.ts';
import { didYouMean } from './did-you-mean.ts';

/**
 * The checks every normalisation step makes, bound to one family: each
 * failure throws a `DefinitionError` naming the family and the key.
 */
export interface DefinitionChecks {
  /** Stops start-up with a message on one key of the definition. */
  fail(key: string, message: string): never;
  /** Fails unless `value` is one of `allowed`, suggesting the closest one. */
  oneOf(args: { key: string; value: string; allowed: Iterable<string>; what: string }): void;
  /** Fails on the first own key of `object` that is not allowed; `key` is where the object sits ('' at the top). */
  onlyKeys(args: { key: string; object: object; allowed: readonly string[] }): void;
}

/** The checks of one family's definition. */
export function definitionChecks(family: string): DefinitionChecks {
  const fail = (key: string, message: string): never => {
    throw new DefinitionError({ family, key, message });
  };
  const oneOf: DefinitionChecks['oneOf'] = ({ key, value, allowed, what }) => {
    const list = [...allowed];
    if (!list.includes(value)) fail(key, `unknown ${what} '${value}'${didYouMean(value, list)}`);
  };
  const onlyKeys: DefinitionChecks['onlyKeys'] = ({ key, object, allowed }) => {
    for (const name of Object.keys(object)) oneOf({ key: `${key}${key ? '.' : ''}${name}`, value: name, allowed, what: 'key' });
  };
  return Object.freeze({ fail, oneOf, onlyKeys });
}
