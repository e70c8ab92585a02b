/** An object with one entry per key, in the order of the keys: `recordOf(['S', 'M'], (size) => ...)`. */
export function recordOf<K extends string, V>(keys: readonly K[], valueOf: (key: K, index: number) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key, i) => [key, valueOf(key, i)])) as Record<K, V>;
}
