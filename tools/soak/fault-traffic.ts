import { request } from 'node:http';
import type { FaultAnswer } from './fault-verdict.ts';

/**
 * The traffic of a scheduled-fault soak, besides the writer: readers that
 * check each answer, a client that hangs up mid-answer, and a follower that
 * keeps a copy with the changes feed. Each loop runs until `signal` aborts.
 */

const TIMEOUT_MS = 20_000;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface FaultTarget {
  readonly origin: string;
  /** The family's path under the API, `/api/public/v1/brands/<slug>/<family>`. */
  readonly collection: string;
  readonly key: string;
  /** Milliseconds since traffic started. */
  now(): number;
}

interface Item {
  readonly id: string;
  readonly createdAt: string;
}

async function get(target: FaultTarget, path: string): Promise<{ status: number; body: any; retryAfter: string | null; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${target.origin}${path}`, { headers: { Authorization: `Bearer ${target.key}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
  } catch {
    return { status: 0, body: null, retryAfter: null, ms: performance.now() - started };
  }
}

/** What is wrong with an answer, or null: a 503 without Retry-After, a list out of order, a get of another record. */
function wrongIn(answer: { status: number; body: any; retryAfter: string | null }, asked: { id?: string }): string | null {
  if (answer.status === 503) return answer.retryAfter !== null && answer.body?.errorCode === 'internal_error' ? null : `a 503 without Retry-After or the error body: ${JSON.stringify(answer.body)}`;
  if (answer.status === 404 && asked.id !== undefined) return null; // the writer deletes records
  if (answer.status !== 200) return answer.status === 0 || answer.status >= 500 ? null : `status ${answer.status}: ${JSON.stringify(answer.body)}`;
  if (asked.id !== undefined) return answer.body?.id === asked.id ? null : `a get of ${asked.id} answered ${answer.body?.id}`;
  const items = answer.body?.items as Item[] | undefined;
  if (!Array.isArray(items)) return 'a list without items';
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1]!, items[i]!];
    if (a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id >= b.id)) return `a list out of order at ${b.id}`;
  }
  return null;
}

/** A reader: lists, gets of ids it has seen, and cursor walks, in turn; every answer recorded and checked. */
export async function runReader({ target, answers, signal }: { target: FaultTarget; answers: FaultAnswer[]; signal: AbortSignal }): Promise<void> {
  let seen: string[] = [];
  let cursor: string | null = null;
  for (let turn = 0; !signal.aborted; turn++) {
    const kind = turn % 3;
    const id = seen.length > 0 ? seen[turn % seen.length]! : undefined;
    const path = kind === 1 && id !== undefined ? `${target.collection}/${id}`
      : kind === 2 && cursor !== null ? `${target.collection}?limit=10&cursor=${encodeURIComponent(cursor)}`
        : `${target.collection}?limit=10`;
    const asked = path.startsWith(`${target.collection}/`) ? { id } : {};
    const sentMs = target.now();
    const answer = await get(target, path);
    answers.push({ sentMs, ms: answer.ms, status: answer.status, wrong: wrongIn(answer, asked) });
    if (answer.status === 200 && Array.isArray(answer.body?.items)) {
      seen = (answer.body.items as Item[]).map((item) => item.id);
      cursor = answer.body.nextCursor as string | null;
    }
    await pause(20);
  }
}

/** A client that asks for a large page and hangs up at its first bytes, every `everyMs`; returns how many it abandoned. */
export async function runHangups({ target, signal, everyMs = 300 }: { target: FaultTarget; signal: AbortSignal; everyMs?: number }): Promise<number> {
  let abandoned = 0;
  while (!signal.aborted) {
    await new Promise<void>((resolve) => {
      const req = request(`${target.origin}${target.collection}?limit=100`, { headers: { Authorization: `Bearer ${target.key}` } }, (res) => {
        res.once('data', () => {
          abandoned += 1;
          req.destroy();
          resolve();
        });
        res.once('end', resolve);
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy());
      req.once('error', () => resolve());
      req.once('close', () => resolve());
      req.end();
    });
    await pause(everyMs);
  }
  return abandoned;
}

/** A copy kept with the changes feed: id → the record's name (the writer gives every insert and update a name of its own). */
export interface FollowerState {
  readonly copy: Map<string, string>;
  token: string | null;
  batches: number;
  failed: number;
}

/** One batch from the copy's token, every page; applied only when whole (a 503 midway leaves the copy and token as they were). */
export async function syncOnce(target: FaultTarget, state: FollowerState): Promise<boolean> {
  const changes: { change: string; id: string; record: unknown }[] = [];
  let path = `${target.collection}/changes?limit=100${state.token === null ? '' : `&syncToken=${encodeURIComponent(state.token)}`}`;
  for (;;) {
    const answer = await get(target, path);
    if (answer.status !== 200) {
      state.failed += 1;
      return false;
    }
    changes.push(...(answer.body.items as typeof changes));
    if (answer.body.nextCursor === null) {
      for (const change of changes) {
        if (change.change === 'delete') state.copy.delete(change.id);
        else state.copy.set(change.id, String((change.record as { name?: unknown }).name));
      }
      state.token = answer.body.syncToken as string;
      state.batches += 1;
      return true;
    }
    path = `${target.collection}/changes?cursor=${encodeURIComponent(answer.body.nextCursor as string)}`;
  }
}

/** The follower: a batch every `everyMs` until `signal` aborts. */
export async function runFollower({ target, state, signal, everyMs = 500 }: { target: FaultTarget; state: FollowerState; signal: AbortSignal; everyMs?: number }): Promise<void> {
  while (!signal.aborted) {
    await syncOnce(target, state);
    await pause(everyMs);
  }
}
