import { DATE_PARAMETER, TIMESTAMP_PARAMETER } from './date-time-parameters.ts';
import { JsonText } from './json-text.ts';
import { UUID_COLUMN } from './batch-by-row.ts';
import { dateJsonSql, utcTimestampJsonSql } from './timestamp-sql.ts';
import { recordDate, recordTimestamp } from './timestamp-text.ts';
import type { FieldType } from '../definition/resource-definition.ts';

/** A JSON Schema fragment; used by AJV and copied into the OpenAPI document. */
export type JsonSchema = { [key: string]: unknown };

/** The spec's identifier pattern: lower-case UUID only (AJV's `uuid` format also takes `urn:uuid:`). */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** Postgres text cannot hold NUL, so a value with one can never match: reject it as a bad parameter. */
const NO_NUL = '^[^\\u0000]*$';

/**
 * A year as a record writes it (timestamp-text.ts): four digits for 0001 to
 * 9999, otherwise an ISO 8601 expanded year (a sign, six digits or more).
 */
const RECORD_YEAR = '(?:[0-9]{4}|[+-][0-9]{6,})';

/** A record's timestamp (CONTRACT.md §2): UTC with milliseconds, or `infinity` / `-infinity`. */
const RECORD_TIMESTAMP_PATTERN = `^(?:${RECORD_YEAR}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z|-?infinity)$`;

/** A record's date: `YYYY-MM-DD` with the same years, or `infinity` / `-infinity`. */
const RECORD_DATE_PATTERN = `^(?:${RECORD_YEAR}-[0-9]{2}-[0-9]{2}|-?infinity)$`;

/** A record's decimal: Postgres's own text of the numeric, which keeps its scale (`40.50`), or `NaN`, `Infinity`, `-Infinity`. */
const RECORD_DECIMAL_PATTERN = '^(?:-?[0-9]+(?:\\.[0-9]+)?|NaN|-?Infinity)$';

/** A decimal parameter: compared as `numeric`, so exact; up to 20 digits each side of the point. */
export const DECIMAL_PARAMETER_PATTERN = '^-?[0-9]{1,20}(\\.[0-9]{1,20})?$';

/** The spec's string filter rule: 1 to 255 characters. */
export const STRING_PARAMETER: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: NO_NUL };


/** What one field type means for the database, the record and a filter parameter. */
export interface FieldTypeImpl {
  /** Column type in DDL. */
  readonly columnType: string;
  /** `information_schema.columns.data_type` of that column, to check a migrated schema. */
  readonly dataType: string;
  /** SQL that reads the column as the record's JSON value, or as text that `decode` makes it (decimals become strings in SQL, dates and timestamps JSON text). */
  read(columnSql: string): string;
  /** What the driver's value becomes in the record, when not itself (the SQL read gives text). */
  readonly decode?: (value: string) => unknown;
  /** JSON Schema of the value in a record (without null). */
  readonly valueSchema: JsonSchema;
  /** JSON Schema of an exact-match parameter, or null when the type cannot be filtered. */
  readonly parameterSchema: JsonSchema | null;
  /**
   * Whether a value certainly casts to the column type from its text, so
   * include keys of this type may share a statement with other requests'
   * (batch-by-row.ts); a type without it runs its includes alone.
   */
  readonly castable?: (value: unknown) => boolean;
}

const isText = (value: unknown): boolean => typeof value === 'string' && !value.includes('\u0000');

export const FIELD_TYPES: Readonly<Record<FieldType, FieldTypeImpl>> = Object.freeze({
  uuid: {
    columnType: 'uuid',
    dataType: 'uuid',
    read: (c) => c,
    valueSchema: { type: 'string', pattern: UUID_PATTERN },
    parameterSchema: { type: 'string', pattern: UUID_PATTERN },
    castable: UUID_COLUMN.accepts,
  },
  string: {
    columnType: 'text',
    dataType: 'text',
    read: (c) => c,
    valueSchema: { type: 'string' },
    parameterSchema: STRING_PARAMETER,
    castable: isText,
  },
  enum: {
    columnType: 'text',
    dataType: 'text',
    read: (c) => c,
    valueSchema: { type: 'string' },
    parameterSchema: { type: 'string' },
    castable: isText,
  },
  integer: {
    columnType: 'integer',
    dataType: 'integer',
    read: (c) => c,
    valueSchema: { type: 'integer' },
    parameterSchema: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
    castable: (value) => Number.isInteger(value) && (value as number) >= -2147483648 && (value as number) <= 2147483647,
  },
  decimal: {
    columnType: 'numeric',
    dataType: 'numeric',
    // numeric::text keeps the stored scale ("40.50"); a JS number would not.
    read: (c) => `${c}::text`,
    valueSchema: { type: 'string', pattern: RECORD_DECIMAL_PATTERN },
    parameterSchema: { type: 'string', pattern: DECIMAL_PARAMETER_PATTERN },
  },
  boolean: {
    columnType: 'boolean',
    dataType: 'boolean',
    read: (c) => c,
    valueSchema: { type: 'boolean' },
    parameterSchema: { type: 'boolean' },
    castable: (value) => typeof value === 'boolean',
  },
  date: {
    columnType: 'date',
    dataType: 'date',
    // Its JSON text, finished in JavaScript (timestamp-sql.ts, timestamp-text.ts).
    read: dateJsonSql,
    decode: recordDate,
    // A pattern, not `format: date`: RFC 3339 has neither expanded years nor infinity.
    valueSchema: { type: 'string', pattern: RECORD_DATE_PATTERN },
    parameterSchema: DATE_PARAMETER,
  },
  timestamp: {
    columnType: 'timestamptz',
    dataType: 'timestamp with time zone',
    // The JSON text of its UTC wall time, finished in JavaScript: the same text on pg and PGlite, whatever the session's time zone and DateStyle.
    read: utcTimestampJsonSql,
    decode: recordTimestamp,
    // A pattern, not `format: date-time`: RFC 3339 has neither expanded years nor infinity.
    valueSchema: { type: 'string', pattern: RECORD_TIMESTAMP_PATTERN },
    parameterSchema: TIMESTAMP_PARAMETER,
  },
  json: {
    columnType: 'jsonb',
    dataType: 'jsonb',
    // As text, never through a JavaScript number: the response writes it as it is (json-text.ts).
    read: (c) => `${c}::text`,
    decode: (text) => new JsonText(text),
    valueSchema: {},
    parameterSchema: null,
  },
});
