/** `?a=1&b=2` from pairs, percent-encoded; empty when there are none. */
export function qs(params: Record<string, string> = {}): string {
  const text = new URLSearchParams(params).toString();
  return text ? `?${text}` : '';
}

/** Records in list order: `createdAt` ascending, then `id` ascending (lower-case UUIDs compare as text). */
export function listOrder<T extends Record<string, any>>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => {
    const at = Date.parse(a.createdAt) - Date.parse(b.createdAt);
    if (at !== 0) return at;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}
