import { expect } from 'chai';
import type { Knex } from 'knex';
import { compileSchema } from '../../../src/engine/compile/compile-schema.ts';
import { FIELD_TYPES, UUID_PATTERN } from '../../../src/engine/compile/field-types.ts';
import { JsonText } from '../../../src/engine/compile/json-text.ts';
import type { FieldType } from '../../../src/engine/definition/resource-definition.ts';
import { testDatabase } from '../../support/test-database.ts';

/** A value of each type as a writer stores it, and the record's JSON value the engine reads back. */
const SAMPLES: Readonly<Record<FieldType, { stored: string; read: unknown }>> = {
  uuid: { stored: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', read: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' },
  string: { stored: 'Parka', read: 'Parka' },
  enum: { stored: 'active', read: 'active' },
  integer: { stored: '-12', read: -12 },
  decimal: { stored: '40.50', read: '40.50' },
  boolean: { stored: 'true', read: true },
  date: { stored: '2026-03-01', read: '2026-03-01' },
  timestamp: { stored: '2026-03-01T10:15:00.5+01:00', read: '2026-03-01T09:15:00.500Z' },
  // Read as text and kept whole (json-text.ts): here, the text jsonb prints without its spaces.
  json: { stored: '{"tags":["a"],"n":1}', read: '{"n":1,"tags":["a"]}' },
};

describe('field types', () => {
  let db: Knex;
  before(async () => {
    ({ db } = await testDatabase());
  });

  it('reads each type from its column as the record writes it, a value its schema accepts', async () => {
    for (const [type, impl] of Object.entries(FIELD_TYPES) as [FieldType, (typeof FIELD_TYPES)[FieldType]][]) {
      const { stored, read } = SAMPLES[type];
      const result = (await db.raw(`select ${impl.read('v.value')} as value from (select ?::${impl.columnType} as value) v`, [stored])) as { rows: { value: unknown }[] };
      // What the driver gives, made the record's value as a family's records are (query-parts.ts).
      const driven = result.rows[0]!.value;
      const decoded = impl.decode && typeof driven === 'string' ? impl.decode(driven) : driven;
      expect(decoded instanceof JsonText ? decoded.text : decoded, type).to.deep.equal(read);
      expect(compileSchema(impl.valueSchema)(read), `${type} value schema`).to.equal(true);
    }
  });

  it('describes in its value schema every value a column can hold: expanded years, infinity, NaN', () => {
    const holds = (type: FieldType, value: unknown): boolean => compileSchema(FIELD_TYPES[type].valueSchema)(value) as boolean;
    for (const value of ['2026-03-01T09:30:00.123Z', '-000043-03-15T12:00:00.000Z', '+000000-12-31T23:59:59.999Z', '+294276-12-31T23:59:59.999Z', 'infinity', '-infinity']) {
      expect(holds('timestamp', value), value).to.equal(true);
    }
    for (const value of ['2026-03-01T09:30:00Z', '2026-03-01T09:30:00.123+00:00', '10000-01-01T00:00:00.000Z', '+infinity', 'Infinity']) {
      expect(holds('timestamp', value), value).to.equal(false);
    }
    for (const value of ['2026-03-01', '-000043-03-15', '+5874897-12-31', 'infinity', '-infinity']) expect(holds('date', value), value).to.equal(true);
    for (const value of ['2026-3-1', '10000-01-01', '2026-03-01T00:00:00Z']) expect(holds('date', value), value).to.equal(false);
    for (const value of ['40.50', '-0.001', '1'.repeat(400), 'NaN', 'Infinity', '-Infinity']) expect(holds('decimal', value), value).to.equal(true);
    for (const value of ['1e5', '.5', '12.', 'nan', '+1', 40.5]) expect(holds('decimal', value), String(value)).to.equal(false);
  });

  it('names the information_schema type of each column type, as a migrated table reports it', async () => {
    const columns = Object.values(FIELD_TYPES).map((impl, i) => `c${i} ${impl.columnType}`).join(', ');
    await db.transaction(async (trx) => {
      await trx.raw(`create temporary table field_types_check (${columns}) on commit drop`);
      const result = (await trx.raw(
        `select column_name, data_type from information_schema.columns where table_name = 'field_types_check' order by ordinal_position`,
      )) as { rows: { data_type: string }[] };
      expect(result.rows.map((row) => row.data_type)).to.deep.equal(Object.values(FIELD_TYPES).map((impl) => impl.dataType));
    });
  });

  it('takes as a filter value only what the column can hold, and offers no filter on JSON', () => {
    const accepts = (type: FieldType, value: unknown): boolean => compileSchema(FIELD_TYPES[type].parameterSchema!)(value) as boolean;
    expect(FIELD_TYPES.json.parameterSchema).to.equal(null);
    expect(FIELD_TYPES.uuid.parameterSchema!.pattern).to.equal(UUID_PATTERN);
    expect(accepts('uuid', 'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D'), 'upper case').to.equal(false);
    expect(accepts('string', 'x'.repeat(255))).to.equal(true);
    expect(accepts('string', 'x'.repeat(256))).to.equal(false);
    expect(accepts('string', 'a\u0000b'), 'NUL').to.equal(false);
    expect(accepts('integer', 2147483647)).to.equal(true);
    expect(accepts('integer', 2147483648), 'beyond a Postgres integer').to.equal(false);
    expect(accepts('decimal', '-12.50')).to.equal(true);
    for (const value of ['1e5', '12.', '.5', '1'.repeat(21)]) expect(accepts('decimal', value), value).to.equal(false);
    expect(accepts('date', '2026-02-28')).to.equal(true);
    expect(accepts('date', '0000-01-01'), 'year 0000').to.equal(false);
    for (const value of ['2026-03-01T09:30:00Z', '2026-03-01T09:30:00.123456789+05:30', '2026-03-01T09:30:00-15:59']) expect(accepts('timestamp', value), value).to.equal(true);
    for (const value of ['2026-03-01T09:30:00', '0000-03-01T09:30:00Z', '2026-03-01T09:30:00+16:00', '2026-03-01T09:30:00.1234567890123456Z']) {
      expect(accepts('timestamp', value), value).to.equal(false);
    }
  });

  it('is a frozen table with an entry for every field type', () => {
    expect(Object.isFrozen(FIELD_TYPES)).to.equal(true);
    expect(Object.keys(FIELD_TYPES).sort()).to.deep.equal(Object.keys(SAMPLES).sort());
  });
});
