import pg from 'pg';
import type { BenchServices } from './bench-services.ts';
import { brandRef } from './case-fixtures.ts';
import type { FeedCaseName } from './feed-cases.ts';
import type { Log } from '../data/load-data.ts';
import { measureFeedPages, type FeedPagesResult } from './measure-feed-pages.ts';
import { measureSyncBatches, type SyncBatchesResult } from './measure-sync-batches.ts';
import { measureIndexWriterCost, measureWriterCost, type IndexWriterCostResult, type WriterCostResult } from './measure-writer-cost.ts';
import { measureIndexBuild, type IndexBuildResult } from './measure-index-build.ts';
import type { BenchOptions } from './options.ts';
import { pickBrands, planBrands } from '../data/scale.ts';
import { waitUntilIdle } from './wait-idle.ts';

/** The feed's measurements of a run; null for a case not selected. */
export interface FeedResults {
  readonly pages: FeedPagesResult | null;
  readonly batches: SyncBatchesResult | null;
  readonly writers: WriterCostResult | null;
  /** Writers on products with the list questions' products indexes and without them. */
  readonly indexWriters: IndexWriterCostResult | null;
  /** The list questions' products indexes built concurrently beside a writer. */
  readonly indexBuild: IndexBuildResult | null;
}

const selected = (names: readonly FeedCaseName[], name: FeedCaseName): boolean => names.includes(name);

/**
 * The selected feed cases, after the floor's cases (they write: the batches
 * update and insert products, the writer cases update many, the index cases
 * drop and build indexes). The products table is vacuumed at the end, so a
 * kept database reads as it did.
 */
export async function measureFeed({ options, url, services, log }: {
  options: BenchOptions;
  url: string;
  services: BenchServices;
  log: Log;
}): Promise<FeedResults> {
  const names = options.feed;
  const target = { origin: services.server.origin, key: services.key };
  const client = new pg.Client({ connectionString: url, application_name: 'bench-feed' });
  await client.connect();
  try {
    const big = await brandRef({ client, slug: pickBrands(planBrands(options.scale)).big.slug });
    let pages: FeedPagesResult | null = null;
    if (selected(names, 'changes-page')) {
      pages = await measureFeedPages({
        target, pid: services.server.pid, brand: big, connections: options.connections,
        durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds, cap: options.smoke ?? null, monitor: client,
      });
      log(`changes page: ${Math.round(pages.changes.requestsPerSecond)} req/s, list page: ${Math.round(pages.list.requestsPerSecond)} req/s (${pages.ratio.toFixed(2)}×)`);
    }
    let batches: SyncBatchesResult | null = null;
    if (selected(names, 'sync-batches')) {
      await waitUntilIdle({ client });
      batches = await measureSyncBatches({ target, brand: big, client });
      log(`full sync: ${batches.fullSync.items} items in ${batches.fullSync.seconds.toFixed(1)} s; incremental: ${batches.small.items} in ${batches.small.seconds.toFixed(2)} s, ${batches.large.items} in ${batches.large.seconds.toFixed(2)} s; empty poll p50 ${batches.emptyPoll.p50Ms.toFixed(2)} ms`);
    }
    let writers: WriterCostResult | null = null;
    if (selected(names, 'writer-cost')) {
      writers = await measureWriterCost({ url, client, durationSeconds: options.durationSeconds });
      log(`writers: ${Math.round(writers.withTriggers.tps)} updates/s with the triggers, ${Math.round(writers.withoutTriggers.tps)} without (cost ${(writers.cost * 100).toFixed(1)} %)`);
    }
    let indexWriters: IndexWriterCostResult | null = null;
    if (selected(names, 'writer-index-cost')) {
      indexWriters = await measureIndexWriterCost({ url, client, durationSeconds: options.durationSeconds });
      log(`writers: ${Math.round(indexWriters.withIndexes.tps)} updates/s with ${indexWriters.indexes.join(', ')}, ${Math.round(indexWriters.withoutIndexes.tps)} without (cost ${(indexWriters.cost * 100).toFixed(1)} %)`);
    }
    let indexBuild: IndexBuildResult | null = null;
    if (selected(names, 'index-build')) {
      indexBuild = await measureIndexBuild({ url, client, beforeSeconds: Math.max(2, Math.round(options.durationSeconds / 2)) });
      const { before, during } = indexBuild;
      log(`built ${indexBuild.indexes.join(', ')} in ${indexBuild.seconds.toFixed(1)} s; the writer committed ${before.commitsPerSecond.toFixed(0)}/s before, ${during.commitsPerSecond.toFixed(0)}/s during (longest gap ${during.longestGapMs.toFixed(0)} ms)`);
    }
    if (batches || writers || indexWriters || indexBuild) await client.query('vacuum (analyze) products');
    return { pages, batches, writers, indexWriters, indexBuild };
  } finally {
    await client.end();
  }
}
