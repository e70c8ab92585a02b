import type { Knex } from 'knex';
import type { CompiledResource } from '../../engine/compile/compile-registry.ts';
import type { ChangesBatch, ChangesPage } from '../../engine/read/read-changes.ts';
import { createChangeWatcher, hasChanged, type BrandKnowledge, type ChangeWatcher } from './change-watcher.ts';
import { createKeyPlaces, type KeyPlaces } from './key-places.ts';
import { waitOnce, type WaitOutcome } from './wait-once.ts';

/** Requests one key may hold waiting at once on one instance (README, "Live changes"); past it, 429. */
export const LIVE_WAITS_PER_KEY = 10;
/** How often a family's watcher asks the primary while anyone waits on it. */
export const LIVE_PROBE_INTERVAL_MS = 150;

/** One waited changes call, as the route hands it over. */
export interface LiveRequest {
  readonly family: CompiledResource;
  /** The opened batch: a first page after a token (`since` set). */
  readonly batch: ChangesBatch;
  readonly limit: number;
  readonly keyId: string;
  readonly seconds: number;
  /** Aborted when the client hangs up. */
  readonly signal: AbortSignal;
  /** The ordinary first page of the batch, read on a copy no older than `after`, from the token's xmin or an older `since`. */
  readPage(after: string | null, since?: string): Promise<ChangesPage>;
  /** A token for the next call: `xmin`, made at `madeAt`, keeping the batch's mark. */
  token(xmin: string, madeAt: number): string;
}

export interface LiveChanges {
  /** The batch, once it has items or the time is up; null when the client hung up. */
  changes(request: LiveRequest): Promise<ChangesPage | null>;
  /** Answers every waiting request now (empty batch, token), and every later one without waiting: the instance is stopping. */
  stop(): void;
  /** Requests waiting now. */
  waiting(): number;
  close(): void;
}

const hasItems = (page: ChangesPage): boolean => page.items.length > 0 || page.nextCursor !== null;

/**
 * The instance's live changes (CONTRACT.md §7): one watcher per family that
 * someone waits on, the places of each key, and the stop of all waits.
 * Waiting holds no connection: a waiting request is a timer and an entry in
 * its watcher. The requests of one brand that one probe wakes with the same
 * token (the same xmin and the same truncations already seen) share one
 * read; its answer, and so their next token, is then the same for all, so
 * the followers of a brand soon share every read.
 */
export function createLiveChanges({ db, withMark, intervalMs = LIVE_PROBE_INTERVAL_MS, perKey = LIVE_WAITS_PER_KEY, onError }: {
  /** The primary. */
  db: Knex;
  /** Whether reads go to replicas: woken requests then read a copy at least as new as the probe's. */
  withMark: boolean;
  intervalMs?: number;
  perKey?: number;
  onError: (error: Error) => void;
}): LiveChanges {
  const watchers = new Map<string, ChangeWatcher>();
  const reading = new Map<string, Promise<ChangesPage>>();
  const room: Room = { places: createKeyPlaces(perKey), stoppers: new Set(), stopping: false, sharedRead: () => Promise.reject(new Error('unset')) };
  room.sharedRead = (request, after, since) => {
    // The truncations the tokens already saw decide a 410 (changes-queries.ts): only reads that agree on them are shared.
    const key = `${request.family.resource.path}|${request.batch.scope.brandId}|${since}|${request.batch.seen.join(',')}|${request.limit}|${after}`;
    let read = reading.get(key);
    if (!read) {
      read = request.readPage(after, since.toString()).finally(() => reading.delete(key));
      reading.set(key, read);
    }
    return read;
  };
  const watcherOf = (family: CompiledResource): ChangeWatcher => {
    let watcher = watchers.get(family.resource.path);
    if (!watcher) {
      watcher = createChangeWatcher({ db, probe: family.changesProbe, intervalMs, withMark, onError });
      watchers.set(family.resource.path, watcher);
    }
    return watcher;
  };
  return {
    changes: (request) => waitForChanges({ room, watcher: watcherOf(request.family), request }),
    stop() {
      room.stopping = true;
      for (const stopOne of [...room.stoppers]) stopOne();
    },
    waiting: () => room.places.held(),
    close() {
      for (const watcher of watchers.values()) watcher.close();
    },
  };
}

/** What every wait of the instance shares. */
interface Room {
  readonly places: KeyPlaces;
  readonly stoppers: Set<() => void>;
  stopping: boolean;
  /** One read, from `since`, for every request of the brand woken by the same probe with the same token and page size. */
  sharedRead(request: LiveRequest, after: string | null, since: bigint): Promise<ChangesPage>;
}

/**
 * One waited call: the ordinary first page unless a probe already saw that
 * it would be empty; then, holding one of the key's places, wait until a
 * change wakes it (and its read has items), the time is up or the instance
 * stops (the empty batch), or the client hangs up (null).
 */
async function waitForChanges({ room, watcher, request }: { room: Room; watcher: ChangeWatcher; request: LiveRequest }): Promise<ChangesPage | null> {
  const since = BigInt(request.batch.since!);
  const seen = new Set(request.batch.seen.map(BigInt));
  const brandId = request.batch.scope.brandId;
  let empty: ChangesPage | null = null;
  if (!quiet({ watcher, brandId, since, seen }) || room.stopping) {
    empty = await request.readPage(request.batch.mark);
    if (hasItems(empty) || room.stopping) return empty;
  }
  if (request.signal.aborted) return null;
  const release = room.places.take(request.keyId);
  try {
    const deadline = Date.now() + request.seconds * 1000;
    // The instance may start stopping while a read is out: no further wait then (its stoppers run only once).
    while (!room.stopping) {
      const outcome: WaitOutcome = await waitOnce({ watcher, brandId, since, seen, deadline, signal: request.signal, stoppers: room.stoppers });
      if (outcome.kind === 'hung-up') return null;
      if (outcome.kind !== 'changed') break;
      // Read from this token's own xmin: from an older one, a TRUNCATE between the two would be a 410 this token must not get.
      const page = await room.sharedRead(request, outcome.mark ?? request.batch.mark, since);
      if (hasItems(page)) return page;
      empty = page;
    }
  } finally {
    release();
  }
  // The freshest token that is true: the last probe's, when it saw nothing for this token.
  const known = quiet({ watcher, brandId, since, seen });
  if (known) return { items: [], nextCursor: null, syncToken: request.token((known.xmin > since ? known.xmin : since).toString(), known.at) };
  return empty ?? request.readPage(request.batch.mark);
}

/** What the last probe of the brand said, when it saw no change for this token: the batch would be empty (a later commit wakes the waiter). */
function quiet({ watcher, brandId, since, seen }: { watcher: ChangeWatcher; brandId: string; since: bigint; seen: ReadonlySet<bigint> }): BrandKnowledge | null {
  const known = watcher.knowledge(brandId);
  return known && !hasChanged(known, { since, seen }) ? known : null;
}
