import { finishedIn, type Snapshot } from '../../engine/compile/snapshot-text.ts';

/**
 * Per brand waited on, the ids its waiters' tokens saw in progress that have
 * since finished having written nothing of it (committed without a stamp of
 * it, or rolled back): their end is no news to the brand (change-watcher.ts).
 * That is true for good (a finished transaction writes no more), so each id
 * is asked about once, and forgotten with the brand's last waiter or once no
 * token still waiting lists it (so a transaction held open, which keeps
 * every token's `xmin` low, does not let the set grow with every token
 * since). A set given out only gains truths or loses some: a token it no
 * longer clears is woken for a read, never left waiting past a change.
 */
export interface ClearedIds {
  /** Per brand, the ids its tokens list that are not known cleared: those the next probe asks about. */
  asking(brands: ReadonlyMap<string, ReadonlyMap<string, { readonly since: Snapshot }>>): Map<string, bigint[]>;
  /** Clears, of the ids `asked` for the brand, those the probe saw finished without a stamp of it; gives the brand's cleared ids. */
  learn(brandId: string, asked: readonly bigint[] | undefined, probe: { readonly snapshot: Snapshot; readonly stamped: ReadonlyMap<string, ReadonlySet<bigint>> }): ReadonlySet<bigint>;
  /** Keeps, of the brand's ids, those its tokens still waiting list. */
  keep(brandId: string, tokens: ReadonlyMap<string, { readonly since: Snapshot }>): void;
  forget(brandId: string): void;
}

export function createClearedIds(): ClearedIds {
  const byBrand = new Map<string, Set<bigint>>();
  return {
    asking(brands) {
      const asking = new Map<string, bigint[]>();
      for (const [brandId, tokens] of brands) {
        const done = byBrand.get(brandId);
        const ids = new Set<bigint>();
        for (const { since } of tokens.values()) for (const xid of since.xip) if (!done?.has(xid)) ids.add(xid);
        if (ids.size > 0) asking.set(brandId, [...ids]);
      }
      return asking;
    },
    learn(brandId, asked, { snapshot, stamped }) {
      let done = byBrand.get(brandId);
      if (!done) byBrand.set(brandId, (done = new Set()));
      const written = stamped.get(brandId);
      for (const xid of asked ?? []) if (finishedIn(snapshot, xid) && !written?.has(xid)) done.add(xid);
      return done;
    },
    keep(brandId, tokens) {
      const done = byBrand.get(brandId);
      if (!done || done.size === 0) return;
      const listed = new Set<bigint>();
      for (const { since } of tokens.values()) for (const xid of since.xip) listed.add(xid);
      for (const xid of done) if (!listed.has(xid)) done.delete(xid);
    },
    forget: (brandId) => void byBrand.delete(brandId),
  };
}
