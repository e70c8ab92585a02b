/** Suggests the closest known name for a misspelt one, for definition and request errors. */

/** Levenshtein distance: the fewest inserted, removed or replaced characters that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/** `" (did you mean 'name'?)"`, or `''` when nothing is close enough. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= typoThreshold(input) ? ` (did you mean '${best}'?)` : '';
}

/** How many edits a name may be off and still be taken for a typo of another. */
export function typoThreshold(input: string): number {
  return Math.max(2, Math.floor(input.length / 3));
}
