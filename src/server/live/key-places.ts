import { ApiError } from '../../engine/request/api-error.ts';

/** How many requests each key holds waiting on this instance, at most `perKey` each. */
export interface KeyPlaces {
  /** Takes a place for the key, or throws 429 `rate_limited` with `Retry-After` when it holds them all; returns its release. */
  take(keyId: string): () => void;
  /** Places held now, all keys. */
  held(): number;
}

export function createKeyPlaces(perKey: number): KeyPlaces {
  const places = new Map<string, number>();
  return {
    take(keyId) {
      const held = places.get(keyId) ?? 0;
      if (held >= perKey) {
        throw new ApiError({ errorCode: 'rate_limited', message: `This key already holds ${perKey} waiting requests on this instance.`, headers: { 'Retry-After': '1' } });
      }
      places.set(keyId, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (places.get(keyId) ?? 1) - 1;
        if (left === 0) places.delete(keyId);
        else places.set(keyId, left);
      };
    },
    held: () => [...places.values()].reduce((sum, n) => sum + n, 0),
  };
}
