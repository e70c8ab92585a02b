/** The Brand Catalog Read API client: `createClient`, its errors, and the generated family types and table. */
export { createClient, CLIENT_VERSION } from './client.ts';
export type { BrandCatalogClient, ClientOptions, GetOptions, IncludeOf, ListOptions, ResultOf, WithIncludes } from './client.ts';
export { ApiError, NetworkError } from './errors.ts';
export type { ApiErrorCode, ParameterIssue } from './errors.ts';
export type { FamilyInfo } from './family-info.ts';
export type { FilterValue } from './query.ts';
export type { Page, RecordList } from './record-list.ts';
export { DEFAULT_MAX_RETRIES } from './retry.ts';
export type { RetryNotice } from './retry.ts';
export * from './families.generated.ts';
