import { DATE_PARAMETER, TIMESTAMP_PARAMETER } from './date-time-parameters.ts';
import { recordTimestampSql } from './timestamp-sql.ts';
import type { FieldType } from '../definition/resource-definition.ts';

/** A JSON Schema fragment; used by AJV and copied into the OpenAPI document. */
export type JsonSchema = { [key: string]: unknown };

/** The spec's identifier pattern: lower-case UUID only (AJV's `uuid` format also takes `urn:uuid:`). */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** Postgres text cannot hold NUL, so a value with one can never match: reject it as a bad parameter. */
const NO_NUL = '^[^\\u0000]*$';

/** The spec's string filter rule: 1 to 255 characters. */
export const STRING_PARAMETER: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: NO_NUL };


/** What one field type means for the database, the record and a filter parameter. */
export interface FieldTypeImpl {
  /** Column type in DDL. */
  readonly columnType: string;
  /** `information_schema.columns.data_type` of that column, to check a migrated schema. */
  readonly dataType: string;
  /** SQL that reads the column as the record's JSON value (timestamps and decimals become strings in SQL). */
  read(columnSql: string): string;
  /** JSON Schema of the value in a record (without null). */
  readonly valueSchema: JsonSchema;
  /** JSON Schema of an exact-match parameter, or null when the type cannot be filtered. */
  readonly parameterSchema: JsonSchema | null;
}

export const FIELD_TYPES: Readonly<Record<FieldType, FieldTypeImpl>> = Object.freeze({
  uuid: {
    columnType: 'uuid',
    dataType: 'uuid',
    read: (c) => c,
    valueSchema: { type: 'string', pattern: UUID_PATTERN },
    parameterSchema: { type: 'string', pattern: UUID_PATTERN },
  },
  string: {
    columnType: 'text',
    dataType: 'text',
    read: (c) => c,
    valueSchema: { type: 'string' },
    parameterSchema: STRING_PARAMETER,
  },
  enum: {
    columnType: 'text',
    dataType: 'text',
    read: (c) => c,
    valueSchema: { type: 'string' },
    parameterSchema: { type: 'string' },
  },
  integer: {
    columnType: 'integer',
    dataType: 'integer',
    read: (c) => c,
    valueSchema: { type: 'integer' },
    parameterSchema: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
  },
  decimal: {
    columnType: 'numeric',
    dataType: 'numeric',
    // numeric::text keeps the stored scale ("40.50"); a JS number would not.
    read: (c) => `${c}::text`,
    valueSchema: { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' },
    parameterSchema: { type: 'string', pattern: '^-?[0-9]{1,20}(\\.[0-9]{1,20})?$' },
  },
  boolean: {
    columnType: 'boolean',
    dataType: 'boolean',
    read: (c) => c,
    valueSchema: { type: 'boolean' },
    parameterSchema: { type: 'boolean' },
  },
  date: {
    columnType: 'date',
    dataType: 'date',
    read: (c) => `to_char(${c}, 'YYYY-MM-DD')`,
    valueSchema: { type: 'string', format: 'date' },
    parameterSchema: DATE_PARAMETER,
  },
  timestamp: {
    columnType: 'timestamptz',
    dataType: 'timestamp with time zone',
    // Formatted in SQL: the same text on pg and PGlite, whatever the session time zone.
    read: recordTimestampSql,
    valueSchema: { type: 'string', format: 'date-time' },
    parameterSchema: TIMESTAMP_PARAMETER,
  },
  json: {
    columnType: 'jsonb',
    dataType: 'jsonb',
    read: (c) => c,
    valueSchema: {},
    parameterSchema: null,
  },
});
