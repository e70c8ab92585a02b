import type { Knex } from 'knex';
import type { CompiledResource } from '../../engine/compile/compile-registry.ts';
import type { ChangesBatch, ChangesPage } from '../../engine/read/read-changes.ts';
import { createChangeWatcher, hasChanged, tokenKey, type BrandKnowledge, type ChangeWatcher } from './change-watcher.ts';
import { createKeyPlaces, type KeyPlaces } from './key-places.ts';
import { waitOnce, type WaitOutcome } from './wait-once.ts';
import { createDeadlineSlots, type DeadlineSlots } from './deadline-slots.ts';
import type { HangUp } from './hang-up.ts';
import { boundedSnapshot, parseSnapshot, seesAtLeast, snapshotText, type Snapshot } from '../../engine/compile/snapshot-text.ts';

/** Requests one key may hold waiting at once on one instance (docs/guides/syncing.md; the waits inside: docs/ARCHITECTURE.md, "The changes feed, inside"); past it, 429. */
export const LIVE_WAITS_PER_KEY = 10;
/** How often a family's watcher asks the primary while anyone waits on it. */
export const LIVE_PROBE_INTERVAL_MS = 250;

/** A point of the feed a token stands for: its snapshot (text), the TRUNCATEs it already saw, and how new a copy the next read must be. */
export interface TokenPoint {
  readonly since: string;
  readonly seen: readonly string[];
  readonly mark: string | null;
}

/** One waited changes call, as the route hands it over. */
export interface LiveRequest {
  readonly family: CompiledResource;
  /** The opened batch: a first page after a token (`since` set). */
  readonly batch: ChangesBatch;
  readonly limit: number;
  readonly keyId: string;
  readonly seconds: number;
  /** The client's hang-up. */
  readonly hangUp: HangUp;
  /** The ordinary first page of the batch, read on a copy no older than `after`, after the request's token or `from`. */
  readPage(after: string | null, from?: TokenPoint): Promise<ChangesPage>;
  /** What the token of a batch read for this request says. */
  reopen(page: ChangesPage): TokenPoint;
  /** A token for the next call: after `to`, made at `madeAt`, keeping the batch's mark. */
  token(to: TokenPoint, madeAt: number): string;
  /**
   * The request's own token, when it may be answered again as it is: young
   * enough that giving it back does not bring its expiry near (null when it
   * may not). A wait that nothing interrupted, for a token the watcher
   * proves nothing has changed since, answers with it: no token is made.
   */
  readonly sameToken: string | null;
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
 * Waiting holds no connection: a waiting request is an entry in a deadline
 * slot and one in its watcher. The requests of one brand that one probe wakes with the same
 * token (the same snapshot and the same truncations already seen) share one
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
  const room: Room = { places: createKeyPlaces(perKey), deadlines: createDeadlineSlots(), stoppers: new Set(), stopping: false, sharedRead: () => Promise.reject(new Error('unset')) };
  room.sharedRead = (request, after, from) => {
    // The truncations the tokens already saw decide a 410 (changes-queries.ts): only reads that agree on them are shared.
    const key = `${request.family.resource.path}|${request.batch.scope.brandId}|${from.since}|${from.seen.join(',')}|${request.limit}|${after}`;
    let read = reading.get(key);
    if (!read) {
      read = request.readPage(after, from).finally(() => reading.delete(key));
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
  /** When the waits' time is up, in shared slots. */
  readonly deadlines: DeadlineSlots;
  readonly stoppers: Set<() => void>;
  stopping: boolean;
  /** One read, from `since`, for every request of the brand woken by the same probe with the same token and page size. */
  sharedRead(request: LiveRequest, after: string | null, from: TokenPoint): Promise<ChangesPage>;
}

/** Where a wait stands: the token it waits after (its snapshot, as text and read) and the TRUNCATEs that token saw. */
interface Point {
  readonly since: string;
  readonly snapshot: Snapshot;
  readonly seen: ReadonlySet<bigint>;
  readonly mark: string | null;
  /** Its key among the watcher's groups (`tokenKey`). */
  readonly token: string;
}

/** Points made before, by what they stand for: the followers of a brand that nothing interrupts hold one token, call after call. */
const points = new Map<string, Point>();
const MAX_POINTS = 20_000;

/** The point of a token: parsed once for every request that holds the same one. */
function pointOf(from: TokenPoint): Point {
  const key = `${from.since}|${from.seen.join(',')}|${from.mark ?? ''}`;
  let point = points.get(key);
  if (!point) {
    const snapshot = parseSnapshot(from.since)!;
    const seen = new Set(from.seen.map(BigInt));
    point = Object.freeze({ ...from, snapshot, seen, token: tokenKey({ since: snapshot, seen }) });
    if (points.size >= MAX_POINTS) points.delete(points.keys().next().value!);
    points.set(key, point);
  }
  return point;
}
const tokenPoint = (point: Point): TokenPoint => ({ since: point.since, seen: [...point.seen].map(String), mark: point.mark });

/**
 * One waited call: the ordinary first page unless a probe already saw that
 * it would be empty; then, holding one of the key's places, wait until a
 * change wakes it (and its read has items), the time is up or the instance
 * stops (the empty batch), or the client hangs up (null).
 *
 * A read that finds nothing (a transaction the token saw running ended
 * without writing to the brand, or a joined row of no record changed) moves
 * the wait on to that read's own token: the batch up to it was empty, as a
 * call without `wait` would have said, and the same news does not wake the
 * request again.
 */
async function waitForChanges({ room, watcher, request }: { room: Room; watcher: ChangeWatcher; request: LiveRequest }): Promise<ChangesPage | null> {
  const asked = pointOf({ since: request.batch.since!, seen: request.batch.seen, mark: request.batch.mark });
  let point = asked;
  const brandId = request.batch.scope.brandId;
  let empty: ChangesPage | null = null;
  if (!quiet({ watcher, brandId, point }) || room.stopping) {
    empty = await request.readPage(request.batch.mark);
    if (hasItems(empty) || room.stopping) return empty;
    point = pointOf(request.reopen(empty));
  }
  if (request.hangUp.hungUp) return null;
  const release = room.places.take(request.keyId);
  try {
    const deadline = Date.now() + request.seconds * 1000;
    // The instance may start stopping while a read is out: no further wait then (its stoppers run only once).
    while (!room.stopping) {
      const outcome: WaitOutcome = await waitOnce({ watcher, brandId, since: point.snapshot, seen: point.seen, token: point.token, deadline, deadlines: room.deadlines, hangUp: request.hangUp, stoppers: room.stoppers });
      if (outcome.kind === 'hung-up') return null;
      if (outcome.kind !== 'changed') break;
      // Read after this wait's own token: after an older one, a TRUNCATE between the two would be a 410 this token must not get.
      const page = await room.sharedRead(request, outcome.mark ?? point.mark, tokenPoint(point));
      if (hasItems(page)) return page;
      empty = page;
      point = pointOf(request.reopen(page));
    }
  } finally {
    release();
  }
  // The freshest token that is true: the last probe's snapshot, when it saw nothing for this one (unless it is older).
  const known = quiet({ watcher, brandId, point });
  // Nothing interrupted the wait and nothing changed since the request's own token: the answer is the empty batch with that
  // token again, every guarantee kept (the next batch reads from the same snapshot), and no token made.
  if (known && point === asked && empty === null && request.sameToken !== null) return { items: [], nextCursor: null, syncToken: request.sameToken };
  if (known) {
    const snapshot = seesAtLeast(known.snapshot, point.snapshot) ? boundedSnapshot(snapshotText(known.snapshot)) : point.since;
    return { items: [], nextCursor: null, syncToken: request.token({ ...tokenPoint(point), since: snapshot }, known.at) };
  }
  return empty ?? request.readPage(point.mark, tokenPoint(point));
}

/** What the last probe of the brand said, when it saw no change for this token: the batch would be empty (a later commit wakes the waiter). */
function quiet({ watcher, brandId, point }: { watcher: ChangeWatcher; brandId: string; point: Point }): BrandKnowledge | null {
  const known = watcher.knowledge(brandId);
  return known && !hasChanged(known, { since: point.snapshot, seen: point.seen }) ? known : null;
}
