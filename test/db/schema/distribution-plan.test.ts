import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { planDistribution, type DistributionPlan } from '../../../src/db/schema/distribution-plan.ts';
import type { ForeignKeyPlan } from '../../../src/db/schema/distribution-foreign-keys.ts';
import { DISTRIBUTION_COLUMN } from '../../../src/db/schema/distribution-roles.ts';
import { DISTRIBUTION_PHASES, primaryKeyName, type DistributionPhase } from '../../../src/db/schema/distribution-steps.ts';
import { SERVICE_TABLES } from '../../../src/db/schema/service-tables.ts';
import { introspectSchema, type LiveSchema } from '../../../src/db/schema/schema-diff.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { planSchema, type SchemaPlan } from '../../../src/engine/compile/plan-schema.ts';
import { testDatabase } from '../../support/test-database.ts';

/**
 * The schema stays ready to be distributed by brand_id (docs/CAPACITY.md):
 * checked on the registry's plan, on the migrated database, and by running
 * the conversion's DDL on it in a transaction that is rolled back, with
 * Citus's rules on keys checked at each step (Citus itself is not needed:
 * its two functions are stubbed for the run).
 */

const isBrandTable = (schema: SchemaPlan, table: string): boolean => schema.tables.some((t) => t.name === table && t.scope === 'brand');
const fkLabel = (key: { table: string; name: string; columns: string; references: string; referencedColumns: string }): string =>
  `${key.table}.${key.name}: (${key.columns}) -> ${key.references} (${key.referencedColumns})`;
const plannedLabel = (key: ForeignKeyPlan): string => fkLabel({
  ...key,
  columns: key.composite ? `${DISTRIBUTION_COLUMN},${key.column}` : key.column,
  referencedColumns: key.composite ? `${DISTRIBUTION_COLUMN},id` : 'id',
});

describe('distribution plan: the registry', () => {
  let schema: SchemaPlan;
  let plan: DistributionPlan;
  before(async () => {
    schema = planSchema(await loadRegistry());
    plan = planDistribution(schema);
  });

  it('gives every table of the registry and the API key tables exactly one role, and one create_* call', () => {
    const names = plan.tables.map((t) => t.table);
    expect(names).to.have.members([...schema.tables.map((t) => t.name), ...SERVICE_TABLES.map((t) => t.name)]);
    expect(new Set(names).size, 'no table twice').to.equal(names.length);
    const expected = { brand: 'distributed', shared: 'reference', tenant: 'reference' } as const;
    for (const table of plan.tables) {
      expect(table.role, table.table).to.equal(table.scope === null ? 'reference' : expected[table.scope]);
      const calls = table.statements.filter((sql) => sql.startsWith('select create_'));
      expect(calls, table.table).to.deep.equal([
        table.role === 'reference'
          ? `select create_reference_table('${table.table}')`
          : `select create_distributed_table('${table.table}', 'brand_id', colocate_with => '${table.table === plan.colocateWith ? 'none' : plan.colocateWith}')`,
      ]);
    }
  });

  it('finds nothing that stops distribution', () => {
    expect(plan.problems).to.deep.equal([]);
  });

  it('every brand-scoped table has a not-null brand_id of the type of the brands\' id', () => {
    const tenantId = schema.tables.find((t) => t.scope === 'tenant')!.columns.find((c) => c.name === 'id')!;
    for (const table of schema.tables.filter((t) => t.scope === 'brand')) {
      const brandId = table.columns.find((c) => c.name === DISTRIBUTION_COLUMN);
      expect(brandId, table.name).to.not.equal(undefined);
      expect(brandId!.nullable, `${table.name}.brand_id nullable`).to.equal(false);
      expect(brandId!.type, `${table.name}.brand_id type`).to.equal(tenantId.type);
    }
  });

  it('every index on a brand-scoped table leads with brand_id: btree ones, unique ones and trigram GIN ones', () => {
    const indexes = schema.indexes.filter((i) => isBrandTable(schema, i.table));
    expect(indexes.filter((i) => i.method === 'gin').length, 'trigram indexes checked').to.be.greaterThan(0);
    expect(indexes.filter((i) => i.columns[0] !== DISTRIBUTION_COLUMN).map((i) => i.name)).to.deep.equal([]);
  });

  it('every foreign key between brand-scoped tables comes back composite on brand_id, and no other does', () => {
    const between = schema.tables.flatMap((t) => t.columns
      .filter((c) => c.references !== null && isBrandTable(schema, t.name) && isBrandTable(schema, c.references))
      .map((c) => `${t.name}.${c.name}`));
    expect(between.length).to.be.greaterThan(0);
    expect(plan.foreignKeys.filter((k) => k.composite).map((k) => `${k.table}.${k.column}`)).to.have.members(between);
    const statements = plan.steps.filter((s) => s.phase === 'foreign-keys').map((s) => s.sql);
    for (const key of plan.foreignKeys.filter((k) => k.composite)) {
      expect(statements, `${key.table}.${key.column}`).to.include(
        `alter table "${key.table}" add constraint "${key.name}" foreign key ("brand_id", "${key.column}") references "${key.references}" ("brand_id", "id")`,
      );
    }
  });

  it('runs stage by stage: foreign keys dropped, primary keys moved, reference tables, distributed tables, foreign keys back', () => {
    const orders = plan.steps.map((s) => DISTRIBUTION_PHASES[s.phase].order);
    expect(orders, 'stages never go back').to.deep.equal([...orders].sort((a, b) => a - b));
    const shape: Record<DistributionPhase, RegExp> = {
      'drop-foreign-keys': /^alter table "\w+" drop constraint "\w+"$/,
      'primary-keys': /^alter table "\w+" drop constraint "\w+_pkey", add constraint "\w+_pkey" primary key \("brand_id", "id"\)$/,
      'reference-tables': /^select create_reference_table\('\w+'\)$/,
      'distributed-tables': /^select create_distributed_table\('\w+', 'brand_id', colocate_with => '\w+'\)$/,
      'foreign-keys': /^alter table "\w+" add constraint "\w+" foreign key \([^)]+\) references "\w+" \([^)]+\)( on delete cascade)?$/,
    };
    for (const step of plan.steps) expect(step.sql, step.phase).to.match(shape[step.phase]);
    const phases = plan.steps.map((s) => s.phase);
    expect(phases.lastIndexOf('reference-tables'), 'reference tables before distributed ones').to.be.lessThan(phases.indexOf('distributed-tables'));
    expect(plan.steps.find((s) => s.phase === 'distributed-tables')!.table, 'the colocation group first').to.equal(plan.colocateWith);
    const distributed = plan.tables.filter((t) => t.role === 'distributed').map((t) => t.table);
    expect(plan.steps.filter((s) => s.phase === 'primary-keys').map((s) => s.table), 'a primary key per distributed table').to.deep.equal(distributed);
    const dropped = plan.steps.filter((s) => s.phase === 'drop-foreign-keys').map((s) => /drop constraint "(\w+)"/.exec(s.sql)![1]);
    const added = plan.steps.filter((s) => s.phase === 'foreign-keys').map((s) => /add constraint "(\w+)"/.exec(s.sql)![1]);
    expect(added, 'every dropped foreign key comes back').to.have.members(dropped);
    expect(dropped).to.have.length(plan.foreignKeys.length);
  });
});

interface LiveConstraint {
  readonly table: string;
  readonly name: string;
  readonly type: 'p' | 'u' | 'f';
  readonly columns: string;
  readonly references: string;
  readonly referencedColumns: string;
  readonly onDelete: string;
}

/** Primary keys, unique constraints and foreign keys with all their columns (introspectSchema reads a foreign key's first column only). */
async function liveConstraints(db: Knex): Promise<LiveConstraint[]> {
  const columns = (key: string, table: string): string =>
    `array_to_string(array(select a.attname from unnest(c.${key}) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.${table} and a.attnum = k.n order by k.o), ',')`;
  const result = (await db.raw(
    `select c.conrelid::regclass::text as "table", c.conname as "name", c.contype as "type",
            ${columns('conkey', 'conrelid')} as "columns", c.confrelid::regclass::text as "references",
            ${columns('confkey', 'confrelid')} as "referencedColumns", c.confdeltype as "onDelete"
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = current_schema() and c.contype in ('p', 'u', 'f')`,
  )) as { rows: LiveConstraint[] };
  return result.rows;
}

/** The migrated database's tables, but knex's own (they stay plain tables on the coordinator). */
const liveTables = (live: LiveSchema): string[] => [...new Set(live.columns.map((c) => c.table))].filter((t) => !t.startsWith('knex_migrations'));

describe('distribution plan: the migrated schema', () => {
  let db: Knex;
  let schema: SchemaPlan;
  let plan: DistributionPlan;
  let live: LiveSchema;
  let constraints: LiveConstraint[];
  before(async () => {
    ({ db } = await testDatabase());
    schema = planSchema(await loadRegistry());
    plan = planDistribution(schema);
    live = await introspectSchema(db);
    constraints = await liveConstraints(db);
  });

  it('covers every table of the database once, but knex\'s own', () => {
    expect(plan.tables.map((t) => t.table)).to.have.members(liveTables(live));
  });

  it('drops and adds back exactly the foreign keys the database has, by their names', () => {
    const tables = new Set(plan.tables.map((t) => t.table));
    const found = constraints.filter((c) => c.type === 'f' && tables.has(c.table));
    expect(found.map((c) => `${fkLabel(c)}${c.onDelete === 'c' ? ' on delete cascade' : ''}`)).to.have.members(plan.foreignKeys.map((k) => `${fkLabel({
      ...k, columns: k.column, referencedColumns: 'id',
    })}${k.onDelete === 'cascade' ? ' on delete cascade' : ''}`));
  });

  it('moves the primary key the database has: (id), under the name it drops', () => {
    for (const table of plan.tables.filter((t) => t.role === 'distributed')) {
      const keys = constraints.filter((c) => c.table === table.table && c.type === 'p').map((c) => `${c.name} (${c.columns})`);
      expect(keys, table.table).to.deep.equal([`${primaryKeyName(table.table)} (id)`]);
    }
  });

  it('keeps the invariants in the database: brand_id not null, and every index but the primary key leads with it', () => {
    for (const table of schema.tables.filter((t) => t.scope === 'brand')) {
      expect(live.columns.find((c) => c.table === table.name && c.column === DISTRIBUTION_COLUMN)?.nullable, `${table.name}.brand_id nullable`).to.equal(false);
    }
    const indexes = live.indexes.filter((i) => isBrandTable(schema, i.table));
    expect(indexes.filter((i) => i.method === 'gin').length, 'trigram indexes checked').to.be.greaterThan(0);
    const primaryKey = (index: LiveSchema['indexes'][number]): boolean => index.unique && index.columns.join() === 'id';
    expect(indexes.filter((i) => i.columns[0] !== DISTRIBUTION_COLUMN && !primaryKey(i)).map((i) => `${i.name} (${i.columns.join()})`)).to.deep.equal([]);
  });

  describe('converted in a transaction that is rolled back', function () {
    this.timeout(120_000);
    let trx: Knex.Transaction;
    let failure: string | null = null;
    const violations: string[] = [];

    before(async () => {
      trx = await db.transaction();
      // Composite keys check the rows already there: start from none, whatever earlier tests left.
      await trx.raw(`truncate ${plan.tables.map((t) => `"${t.table}"`).join(', ')} cascade`);
      await trx.raw(`create function create_reference_table(table_name regclass) returns void language plpgsql as $$ begin end $$`);
      await trx.raw(`create function create_distributed_table(table_name regclass, distribution_column text, colocate_with text default 'default') returns void language plpgsql as $$ begin end $$`);
      const citus = new Map<string, 'reference' | 'distributed'>();
      let catalog: { constraints: LiveConstraint[]; live: LiveSchema } | null = null;
      for (const step of plan.steps) {
        if (step.phase === 'reference-tables' || step.phase === 'distributed-tables') {
          catalog ??= { constraints: await liveConstraints(trx), live: await introspectSchema(trx) };
          const role = step.phase === 'reference-tables' ? 'reference' : 'distributed';
          violations.push(...citusRules({ table: step.table, role, citus, catalog, colocateWith: /colocate_with => '(\w+)'/.exec(step.sql)?.[1] ?? null }));
          citus.set(step.table, role);
        } else {
          catalog = null;
        }
        try {
          await trx.raw(step.sql);
        } catch (error) {
          failure = `${step.sql}: ${(error as Error).message}`;
          break;
        }
      }
      // After a failed statement the transaction only takes a rollback.
      if (failure === null) violations.push(...finalRules({ citus, constraints: await liveConstraints(trx), live: await introspectSchema(trx) }));
    });

    after(async () => {
      await trx?.rollback();
    });

    it('runs every statement', () => {
      expect(failure).to.equal(null);
    });

    it("meets Citus's rules on keys at every create_* call and at the end", () => {
      expect(violations).to.deep.equal([]);
    });

    it('ends with primary keys (brand_id, id) and composite foreign keys between distributed tables', async () => {
      const found = await liveConstraints(trx);
      for (const table of plan.tables.filter((t) => t.role === 'distributed')) {
        expect(found.filter((c) => c.table === table.table && c.type === 'p').map((c) => c.columns), table.table).to.deep.equal(['brand_id,id']);
      }
      const tables = new Set(plan.tables.map((t) => t.table));
      expect(found.filter((c) => c.type === 'f' && tables.has(c.table)).map(fkLabel)).to.have.members(plan.foreignKeys.map(plannedLabel));
    });

    it("refuses a row that names another brand's row, as the single-column key did not", async () => {
      const key = plan.foreignKeys.find((k) => k.composite && insertable(schema, k.table) && insertable(schema, k.references))!;
      expect(key, 'a composite key between two tables a test can fill').to.not.equal(undefined);
      const [a, b] = [randomUUID(), randomUUID()];
      await trx.raw(`insert into brands (id, slug, name) values (?, 'a', 'A'), (?, 'b', 'B')`, [a, b]);
      const target = randomUUID();
      await trx.raw(`insert into "${key.references}" (id, brand_id) values (?, ?)`, [target, b]);
      const refused = await trx.transaction(async (savepoint) => {
        await savepoint.raw(`insert into "${key.table}" (brand_id, "${key.column}") values (?, ?)`, [a, target]);
      }).then(() => null, (error: { code?: string }) => error.code);
      expect(refused, `${key.table}.${key.column} naming another brand's ${key.references}`).to.equal('23503');
      await trx.raw(`insert into "${key.table}" (brand_id, "${key.column}") values (?, ?)`, [b, target]);
    });
  });
});

/** A table whose rows need nothing but an id and a brand (every other not-null column has a default). */
function insertable(schema: SchemaPlan, table: string): boolean {
  const plan = schema.tables.find((t) => t.name === table)!;
  return plan.columns.every((c) => c.nullable || c.default !== null || c.name === DISTRIBUTION_COLUMN || c.name === 'id');
}

/**
 * What Citus refuses when a table becomes a Citus table (docs.citusdata.com,
 * "Creating and Modifying Distributed Objects"): a unique or primary key on a
 * distributed table without the distribution column; a foreign key between
 * distributed tables that does not pair the distribution columns, or that
 * crosses colocation groups; a reference table pointing at a distributed
 * one. Stricter than Citus on one point: no foreign key may link a new Citus
 * table with a plain one (Citus accepts some of those only with the
 * coordinator in its metadata).
 */
function citusRules({ table, role, citus, catalog, colocateWith }: {
  table: string;
  role: 'reference' | 'distributed';
  citus: ReadonlyMap<string, 'reference' | 'distributed'>;
  catalog: { constraints: readonly LiveConstraint[]; live: LiveSchema };
  colocateWith: string | null;
}): string[] {
  const out: string[] = [];
  if (citus.has(table)) out.push(`${table}: already a Citus table`);
  if (role === 'distributed') {
    if (!catalog.live.columns.some((c) => c.table === table && c.column === DISTRIBUTION_COLUMN)) out.push(`${table}: no ${DISTRIBUTION_COLUMN}`);
    if (colocateWith !== 'none' && citus.get(colocateWith ?? '') !== 'distributed') out.push(`${table}: colocated with ${colocateWith}, not a distributed table yet`);
    for (const key of catalog.constraints.filter((c) => c.table === table && c.type !== 'f')) {
      if (!key.columns.split(',').includes(DISTRIBUTION_COLUMN)) out.push(`${table}.${key.name}: (${key.columns}) lacks ${DISTRIBUTION_COLUMN}`);
    }
    for (const index of catalog.live.indexes.filter((i) => i.table === table && i.unique)) {
      if (!index.columns.includes(DISTRIBUTION_COLUMN)) out.push(`${table}: unique index (${index.columns.join()}) lacks ${DISTRIBUTION_COLUMN}`);
    }
  }
  const roles = new Map(citus).set(table, role);
  for (const key of catalog.constraints.filter((c) => c.type === 'f' && (c.table === table || c.references === table))) {
    out.push(...foreignKeyRule(key, roles));
  }
  return out;
}

/** One foreign key among Citus tables: allowed, or why not. */
function foreignKeyRule(key: LiveConstraint, roles: ReadonlyMap<string, 'reference' | 'distributed'>): string[] {
  const [from, to] = [roles.get(key.table), roles.get(key.references)];
  if (from === undefined || to === undefined) return [`${fkLabel(key)}: links a Citus table with a plain one`];
  if (from === 'reference' && to === 'distributed') return [`${fkLabel(key)}: a reference table points at a distributed one`];
  if (from === 'distributed' && to === 'distributed') {
    const position = key.columns.split(',').indexOf(DISTRIBUTION_COLUMN);
    if (position < 0 || key.referencedColumns.split(',')[position] !== DISTRIBUTION_COLUMN) return [`${fkLabel(key)}: does not pair the distribution columns`];
  }
  return [];
}

/** After the last step: every table of the plan is a Citus table, and every foreign key among them is allowed. */
function finalRules({ citus, constraints, live }: {
  citus: ReadonlyMap<string, 'reference' | 'distributed'>;
  constraints: readonly LiveConstraint[];
  live: LiveSchema;
}): string[] {
  const plain = liveTables(live).filter((t) => !citus.has(t)).map((t) => `${t}: still a plain table`);
  const keys = constraints.filter((c) => c.type === 'f' && (citus.has(c.table) || citus.has(c.references)));
  return [...plain, ...keys.flatMap((key) => foreignKeyRule(key, citus))];
}
