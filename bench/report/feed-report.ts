import { FEED_CASE_TITLES } from '../measure/feed-cases.ts';
import type { FeedResults } from '../measure/measure-feed.ts';
import type { BatchTiming } from '../measure/measure-sync-batches.ts';
import type { Measurement } from '../measure/measure.ts';
import { milliseconds, thousands } from './format.ts';

function pageRow(title: string, m: Measurement): string {
  return `| ${title} | ${thousands(m.requestsPerSecond)} | ${milliseconds(m.p50Ms)} | ${milliseconds(m.p99Ms)} | ${m.errors + m.non2xx} | ${m.cpuMsPerRequest === null ? 'n/a' : m.cpuMsPerRequest.toFixed(2)} |`;
}

function batchRow(title: string, batch: BatchTiming & { changed?: number }): string {
  const perSecond = batch.seconds > 0 ? batch.items / batch.seconds : Number.NaN;
  return `| ${title} | ${batch.changed === undefined ? '' : thousands(batch.changed)} | ${thousands(batch.items)} (${thousands(batch.deletes)} deletes) | ${batch.pages} | ${batch.seconds.toFixed(2)} | ${thousands(perSecond)} |`;
}

/** The feed's part of the report, as Markdown lines; none when no feed case ran. */
export function renderFeed(feed: FeedResults): string[] {
  const lines: string[] = [];
  if (feed.pages) {
    lines.push(
      `### ${FEED_CASE_TITLES['changes-page']}`, '',
      'The first 20 pages of each walk (a list, a full sync of the feed), cycled by every connection.', '',
      '| page of 100 | req/s | p50 ms | p99 ms | errors | CPU ms/req |', '|---|--:|--:|--:|--:|--:|',
      pageRow('list', feed.pages.list), pageRow('changes', feed.pages.changes), '',
      `List req/s / changes req/s: ${feed.pages.ratio.toFixed(2)}×.`, '',
    );
  }
  if (feed.batches) {
    const { fullSync, small, large, emptyPoll } = feed.batches;
    lines.push(
      `### ${FEED_CASE_TITLES['sync-batches']}`, '',
      'One client follows each batch to its end, 1,000 items a page; the writes commit before the batch.', '',
      '| batch | records written | items | pages | seconds | items/s |', '|---|--:|--:|--:|--:|--:|',
      batchRow('full sync (no token)', fullSync),
      batchRow('incremental: 1 % updated, 100 inserted, 50 of them deleted', small),
      batchRow('incremental: 10 % updated', large), '',
      `A poll with the last token when nothing changed: p50 ${milliseconds(emptyPoll.p50Ms)} ms, p99 ${milliseconds(emptyPoll.p99Ms)} ms over ${emptyPoll.calls} calls.`, '',
    );
  }
  if (feed.writers) {
    const { withTriggers, withoutTriggers, clients, cost } = feed.writers;
    lines.push(
      `### ${FEED_CASE_TITLES['writer-cost']}`, '',
      `pgbench, ${clients} sessions, each transaction one \`update products set updated_at = now()\` of a random product, synchronous_commit off (CPU-bound: the triggers' largest share).`, '',
      '| triggers | updates/s | mean latency ms |', '|---|--:|--:|',
      `| on | ${thousands(withTriggers.tps)} | ${withTriggers.latencyMs.toFixed(3)} |`,
      `| off | ${thousands(withoutTriggers.tps)} | ${withoutTriggers.latencyMs.toFixed(3)} |`, '',
      `The triggers' cost to writers: ${(cost * 100).toFixed(1)} % of their throughput.`, '',
    );
  }
  return lines;
}
