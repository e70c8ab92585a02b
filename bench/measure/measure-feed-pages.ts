import type pg from 'pg';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { getJson, type WalkTarget } from './case-fixtures.ts';
import type { BrandRef } from './cases.ts';
import { FEED_PAGE_LIMIT, FEED_PAGES } from './feed-cases.ts';
import { combine, runLoad, warmUp, type LoadCap, type LoadTarget, type Measurement, type RunSample } from './measure.ts';
import { waitUntilIdle } from './wait-idle.ts';

/** The changes page against the list page, both on the server. */
export interface FeedPagesResult {
  readonly list: Measurement;
  readonly changes: Measurement;
  /** List req/s over changes req/s: how many times dearer a changes page is (the target: at most 1.3). */
  readonly ratio: number;
}

/**
 * The request paths of the first `pages` pages of a walk from `path` (a list,
 * or a full sync of the feed), by following `nextCursor` as a client does.
 */
export async function walkPaths({ target, path, pages }: { target: WalkTarget; path: string; pages: number }): Promise<string[]> {
  const paths: string[] = [];
  let cursor: string | null = null;
  do {
    const request: string = `${path}?${new URLSearchParams({ limit: String(FEED_PAGE_LIMIT), ...(cursor ? { cursor } : {}) }).toString()}`;
    paths.push(request);
    const body = await getJson(`${target.origin}${request}`, target.key);
    cursor = typeof body.nextCursor === 'string' ? body.nextCursor : null;
  } while (cursor !== null && paths.length < pages);
  return paths;
}

/**
 * The first pages of the big brand's products as a list and as a full sync of
 * the changes feed, 100 records a page, each measured on the server with the
 * same connections in mirrored halves (list, changes, changes, list), so load
 * that drifts weighs alike on both.
 */
export async function measureFeedPages({ target, pid, brand, connections, durationSeconds, warmupSeconds, cap, monitor }: {
  target: WalkTarget;
  pid: number;
  brand: BrandRef;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** A smoke run's cap (BenchOptions.smoke); null: as fast as answered. */
  cap: LoadCap | null;
  monitor: pg.Client;
}): Promise<FeedPagesResult> {
  const base = `${API_BASE_PATH}/brands/${brand.slug}/products`;
  const routes = {
    list: await walkPaths({ target, path: base, pages: FEED_PAGES }),
    changes: await walkPaths({ target, path: `${base}/changes`, pages: FEED_PAGES }),
  };
  const loadTarget = (paths: readonly string[]): LoadTarget => ({ origin: target.origin, pid, headers: { Authorization: `Bearer ${target.key}` }, paths });
  const firstHalf = Math.max(1, Math.ceil(durationSeconds / 2));
  const secondHalf = durationSeconds - firstHalf;
  const plan: { route: 'list' | 'changes'; seconds: number }[] = [
    { route: 'list', seconds: firstHalf }, { route: 'changes', seconds: firstHalf },
    ...(secondHalf > 0 ? [{ route: 'changes' as const, seconds: secondHalf }, { route: 'list' as const, seconds: secondHalf }] : []),
  ];
  const samples: Record<'list' | 'changes', RunSample[]> = { list: [], changes: [] };
  for (const run of plan) {
    await waitUntilIdle({ client: monitor });
    const on = loadTarget(routes[run.route]);
    if (samples[run.route].length === 0) await warmUp({ target: on, connections, seconds: warmupSeconds, cap });
    samples[run.route].push(await runLoad({ target: on, connections, seconds: run.seconds, cap }));
  }
  const list = combine(samples.list);
  const changes = combine(samples.changes);
  return { list, changes, ratio: changes.requestsPerSecond > 0 ? list.requestsPerSecond / changes.requestsPerSecond : Number.NaN };
}
