/**
 * The changes feed's costs (issue 15), measured on the server alone: the
 * floor has no feed to compare with, so each is weighed against the server's
 * own list, or the database against itself without the feed's triggers.
 */
export const FEED_CASE_NAMES = ['changes-page', 'sync-batches', 'writer-cost'] as const;
export type FeedCaseName = (typeof FEED_CASE_NAMES)[number];

/** What each feed case measures, as the report titles it. */
export const FEED_CASE_TITLES: Readonly<Record<FeedCaseName, string>> = Object.freeze({
  'changes-page': 'a changes page of 100 against a list page of 100 (big brand)',
  'sync-batches': 'a full sync, incremental batches and an empty poll (big brand)',
  'writer-cost': "single-row updates per second with and without the feed's triggers",
});

/** Items a page of the feed's pages case asks for, and records a list page of it. */
export const FEED_PAGE_LIMIT = 100;
/** Pages of each walk the pages case cycles through: a sync reads a batch page after page, not one page again. */
export const FEED_PAGES = 20;
/** Items per page when a batch is followed to its end, as a sync would (the largest the feed serves). */
export const BATCH_LIMIT = 1000;
