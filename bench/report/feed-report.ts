import { FEED_CASE_TITLES } from '../measure/feed-cases.ts';
import type { FeedResults } from '../measure/measure-feed.ts';
import type { BatchTiming } from '../measure/measure-sync-batches.ts';
import type { Measurement } from '../measure/measure.ts';
import type { WriterWindow } from '../measure/measure-index-build.ts';
import { milliseconds, thousands } from './format.ts';

function pageRow(title: string, m: Measurement): string {
  return `| ${title} | ${thousands(m.requestsPerSecond)} | ${milliseconds(m.p50Ms)} | ${milliseconds(m.p99Ms)} | ${m.errors + m.non2xx} | ${m.cpuMsPerRequest === null ? 'n/a' : m.cpuMsPerRequest.toFixed(2)} |`;
}

function batchRow(title: string, batch: BatchTiming & { changed?: number }): string {
  const perSecond = batch.seconds > 0 ? batch.items / batch.seconds : Number.NaN;
  return `| ${title} | ${batch.changed === undefined ? '' : thousands(batch.changed)} | ${thousands(batch.items)} (${thousands(batch.deletes)} deletes) | ${batch.pages} | ${batch.seconds.toFixed(2)} | ${thousands(perSecond)} |`;
}

function pagesSection(section: NonNullable<FeedResults['pages']>): string[] {
  return [
    `### ${FEED_CASE_TITLES['changes-page']}`, '',
    'The first 20 pages of each walk (a list, a full sync of the feed), cycled by every connection.', '',
    '| page of 100 | req/s | p50 ms | p99 ms | errors | CPU ms/req |', '|---|--:|--:|--:|--:|--:|',
    pageRow('list', section.list), pageRow('changes', section.changes), '',
    `List req/s / changes req/s: ${section.ratio.toFixed(2)}×.`, '',
  ];
}

function batchesSection(section: NonNullable<FeedResults['batches']>): string[] {
  const { fullSync, small, large, emptyPoll } = section;
  return [
    `### ${FEED_CASE_TITLES['sync-batches']}`, '',
    'One client follows each batch to its end, 1,000 items a page; the writes commit before the batch.', '',
    '| batch | records written | items | pages | seconds | items/s |', '|---|--:|--:|--:|--:|--:|',
    batchRow('full sync (no token)', fullSync),
    batchRow('incremental: 1 % updated, 100 inserted, 50 of them deleted', small),
    batchRow('incremental: 10 % updated', large), '',
    `A poll with the last token when nothing changed: p50 ${milliseconds(emptyPoll.p50Ms)} ms, p99 ${milliseconds(emptyPoll.p99Ms)} ms over ${emptyPoll.calls} calls.`, '',
  ];
}

function writersSection(section: NonNullable<FeedResults['writers']>): string[] {
  const { withTriggers, withoutTriggers, clients, cost } = section;
  return [
    `### ${FEED_CASE_TITLES['writer-cost']}`, '',
    `pgbench, ${clients} sessions, each transaction one \`update products set updated_at = now()\` of a random product, synchronous_commit off (CPU-bound: the triggers' largest share).`, '',
    '| triggers | updates/s | mean latency ms |', '|---|--:|--:|',
    `| on | ${thousands(withTriggers.tps)} | ${withTriggers.latencyMs.toFixed(3)} |`,
    `| off | ${thousands(withoutTriggers.tps)} | ${withoutTriggers.latencyMs.toFixed(3)} |`, '',
    `The triggers' cost to writers: ${(cost * 100).toFixed(1)} % of their throughput.`, '',
  ];
}

function indexWritersSection(section: NonNullable<FeedResults['indexWriters']>): string[] {
  const { withIndexes, withoutIndexes, clients, cost, indexes, rebuildSeconds } = section;
  return [
    `### ${FEED_CASE_TITLES['writer-index-cost']}`, '',
    `pgbench, ${clients} sessions, each transaction one \`update products set updated_at = now()\` of a random product (an indexed column: every update adds an entry to every index of the table), the feed's triggers on, synchronous_commit off (CPU-bound: the indexes' largest share). `
      + `Present, dropped, dropped, present, in halves of the run; dropped: ${indexes.map((name) => `\`${name}\``).join(', ')} (the migration's indexes on products), built again by its \`up\`${rebuildSeconds.length === 0 ? '' : ` (${rebuildSeconds.map((seconds) => `${seconds.toFixed(1)} s`).join(', ')})`}.`, '',
    '| indexes | updates/s | mean latency ms |', '|---|--:|--:|',
    `| present | ${thousands(withIndexes.tps)} | ${withIndexes.latencyMs.toFixed(3)} |`,
    `| dropped | ${thousands(withoutIndexes.tps)} | ${withoutIndexes.latencyMs.toFixed(3)} |`, '',
    `The indexes' cost to writers on products: ${(cost * 100).toFixed(1)} % of their throughput.`, '',
  ];
}

function indexBuildSection(section: NonNullable<FeedResults['indexBuild']>): string[] {
  const { indexes, products, seconds, writerRate, before, during, keptCommitting } = section;
  const row = (title: string, w: WriterWindow): string =>
    `| ${title} | ${w.seconds.toFixed(1)} | ${thousands(w.commits)} | ${Number.isNaN(w.commitsPerSecond) ? 'n/a' : w.commitsPerSecond.toFixed(1)} | ${w.longestGapMs.toFixed(0)} | ${milliseconds(w.meanLatencyMs)} | ${milliseconds(w.maxLatencyMs)} |`;
  return [
    `### ${FEED_CASE_TITLES['index-build']}`, '',
    `${indexes.map((name) => `\`${name}\``).join(', ')} dropped, then built by the migration's \`up\` (\`create index concurrently\`, the other indexes of the migration found valid and kept) on ${thousands(products)} products `
      + `in **${seconds.toFixed(1)} s**, while pgbench committed single-row updates of random products at a steady ${writerRate}/s (2 sessions, commits flushed as by default), every transaction logged.`, '',
    'Latency is pgbench\'s with a target rate: from each transaction\'s scheduled start, so a writer held up shows it there too.', '',
    '| writer | seconds | commits | commits/s | longest gap ms | mean latency ms | max latency ms |', '|---|--:|--:|--:|--:|--:|--:|',
    row('before the build', before), row('during the build', during), '',
    `The writer ${keptCommitting ? 'kept committing all through the build' : '**was held up during the build**'}.`, '',
  ];
}

/** The feed's part of the report, as Markdown lines; none when no feed case ran. */
export function renderFeed(feed: FeedResults): string[] {
  return [
    ...(feed.pages ? pagesSection(feed.pages) : []),
    ...(feed.batches ? batchesSection(feed.batches) : []),
    ...(feed.writers ? writersSection(feed.writers) : []),
    ...(feed.indexWriters ? indexWritersSection(feed.indexWriters) : []),
    ...(feed.indexBuild ? indexBuildSection(feed.indexBuild) : []),
  ];
}
