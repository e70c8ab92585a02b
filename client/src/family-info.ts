/** What the client knows of one family at run time (one row of `FAMILIES`). */
export interface FamilyInfo {
  /** URL segment after `/brands/{brand}/`. */
  readonly path: string;
  /** True for `brands`: its one record is the brand of the path (`GET /brands/{brand}`), and it has no list. */
  readonly tenant: boolean;
  /** The record's field names, in the order the server writes them. */
  readonly fields: readonly string[];
  /** The list's filter parameters. */
  readonly filters: readonly string[];
  /** The names `include` takes. */
  readonly includes: readonly string[];
}
