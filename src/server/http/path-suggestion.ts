import { editDistance, typoThreshold } from '../../engine/definition/did-you-mean.ts';

/** Longer paths get no suggestion: a 404 must stay cheap, whatever a client sends. */
const MAX_PATH_LENGTH = 512;

/**
 * Suggests the path a mistyped one was meant to be (issue 19: parameters had
 * a did-you-mean, paths none), from the routes' patterns
 * (`/api/public/v1/brands/:brand/products/:id`): a pattern with as many
 * segments as the path, once a trailing slash and empty segments are
 * dropped, whose every literal segment is the path's or a typo of it
 * (`typoThreshold` edits, letter case free), and parameters any non-empty
 * segment. The closest pattern wins, filled with the path's own values, so
 * `/brands/acme/prodcts` suggests `/brands/acme/products`. Null when none is
 * close, or when the closest is the path itself.
 *
 * A 404 costs this work, without a key: distances are computed once per
 * distinct literal at each position (about a hundred for the registry's
 * families), a few tens of microseconds.
 */
export function createPathSuggester(patterns: readonly string[]): (path: string) => string | null {
  const split = patterns.map((pattern) => pattern.split('/').filter((segment) => segment !== ''));
  return (path) => {
    if (path.length > MAX_PATH_LENGTH) return null;
    const segments = path.split('/').filter((segment) => segment !== '');
    const distances = new Map<string, number>();
    const distance = (index: number, literal: string): number => {
      const memo = `${index}/${literal}`;
      let found = distances.get(memo);
      if (found === undefined) {
        const given = segments[index]!;
        found = editDistance(given.toLowerCase(), literal.toLowerCase());
        if (found > typoThreshold(literal)) found = Infinity;
        distances.set(memo, found);
      }
      return found;
    };
    let best: { pattern: readonly string[]; cost: number } | null = null;
    for (const pattern of split) {
      if (pattern.length !== segments.length) continue;
      let cost = 0;
      for (let i = 0; i < pattern.length && cost < Infinity; i++) {
        if (!pattern[i]!.startsWith(':')) cost += distance(i, pattern[i]!);
      }
      if (cost < (best?.cost ?? Infinity)) best = { pattern, cost };
    }
    if (!best) return null;
    const suggestion = `/${best.pattern.map((segment, i) => (segment.startsWith(':') ? segments[i] : segment)).join('/')}`;
    return suggestion === path ? null : suggestion;
  };
}
