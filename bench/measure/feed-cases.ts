/**
 * The cases that write, measured last and on the server alone: the floor
 * has nothing to compare with, so each is weighed against the server's own
 * list, or the database against itself. The changes feed's costs (issue 15):
 * a changes page, sync batches, the triggers' cost to writers. The indexes
 * the list questions added (CONTRACT.md §8, migration
 * 20261128000133_list_questions_indexes): their cost to writers on
 * products, and their concurrent build on the loaded data beside a writer.
 */
export const FEED_CASE_NAMES = ['changes-page', 'sync-batches', 'writer-cost', 'writer-index-cost', 'index-build'] as const;
export type FeedCaseName = (typeof FEED_CASE_NAMES)[number];

/** What each feed case measures, as the report titles it. */
export const FEED_CASE_TITLES: Readonly<Record<FeedCaseName, string>> = Object.freeze({
  'changes-page': 'a changes page of 100 against a list page of 100 (big brand)',
  'sync-batches': 'a full sync, incremental batches and an empty poll (big brand)',
  'writer-cost': "single-row updates per second with and without the feed's triggers",
  'writer-index-cost': "single-row updates per second on products with and without the list questions' indexes",
  'index-build': "the list questions' products indexes built concurrently by the migration, beside a writer",
});

/** Items a page of the feed's pages case asks for, and records a list page of it. */
export const FEED_PAGE_LIMIT = 100;
/** Pages of each walk the pages case cycles through: a sync reads a batch page after page, not one page again. */
export const FEED_PAGES = 20;
/** Items per page when a batch is followed to its end, as a sync would (the largest the feed serves). */
export const BATCH_LIMIT = 1000;
