/** The Brand Catalog Read API client: `createClient`, its errors, and the generated family types and table. */
export { createClient, CLIENT_VERSION } from './client.ts';
export type { BrandCatalogClient, ChangesOptions, ChangesPath, ClientOptions, FamilyClient, FamilyClients, FieldOf, GetOptions, IncludeOf, ListOptions, ResultOf, WithIncludes } from './client.ts';
export type { CountedValue, Counts, CountsOptions } from './counts.ts';
export type { ChangeBatch, ChangeItem, ChangesPage, DeleteItem, UpsertItem } from './change-batch.ts';
export type { FollowedBatch, FollowOptions } from './follow-changes.ts';
export { ApiError, isPassingFailure, NetworkError, SyncTokenExpiredError } from './errors.ts';
export type { ApiErrorCode, ParameterIssue } from './errors.ts';
export type { FamilyInfo } from './family-info.ts';
export type { FilterScalar, FilterValue, RangeBounds } from './query.ts';
export type { Page, RecordList } from './record-list.ts';
export { DEFAULT_MAX_RETRIES } from './retry.ts';
export type { RetryNotice } from './retry.ts';
export * from './families.generated.ts';
