import { didYouMean } from '../../engine/definition/did-you-mean.ts';
import { AREAS } from '../../engine/definition/normalize-resource.ts';
import type { Registry } from '../../engine/definition/registry.ts';

/** What a key may be restricted to, and its own limit (CONTRACT.md §4). */
export interface KeyScope {
  /** Family paths the key may read; with `areas` empty too: every family. */
  readonly families?: readonly string[];
  /** Areas whose families the key may read. */
  readonly areas?: readonly string[];
  /** The key's own requests per window; null: the service's default. */
  readonly rateLimit?: number | null;
}

/** The families a key may name (every family with a list: the brand's own record is open to every key) and the areas. */
export interface KnownFamilies {
  readonly families: readonly string[];
  readonly areas: readonly string[];
}

/** What a key of `registry` may name: every family with a list (the brand's own record is open to every key of the brand), and the areas. */
export function knownFamilies(registry: Pick<Registry, 'resources'>): KnownFamilies {
  return { families: registry.resources.filter((resource) => resource.scope !== 'tenant').map((resource) => resource.path), areas: AREAS };
}

/** Why a key's scope cannot be made, naming what is wrong, or null. */
export function checkKeyScope({ families = [], areas = [], rateLimit = null, known }: KeyScope & { known?: KnownFamilies }): string | null {
  if (rateLimit !== null && !(Number.isSafeInteger(rateLimit) && rateLimit > 0)) return 'a rate limit is a whole number of requests per window, above 0';
  if (families.length + areas.length === 0) return null;
  if (!known) throw new Error('restricting a key needs the families and areas there are');
  const unknown = (kind: string, given: readonly string[], allowed: readonly string[]): string | null => {
    const wrong = given.find((name) => !allowed.includes(name));
    if (wrong === undefined) return null;
    return `no ${kind} '${wrong}'${didYouMean(wrong, allowed)}: ${kind === 'area' ? `the areas are ${allowed.join(', ')}` : 'name a family by its path, as docs/reference/README.md lists them'}`;
  };
  return unknown('family', families, known.families) ?? unknown('area', areas, known.areas);
}
