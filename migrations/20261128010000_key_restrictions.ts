import type { Knex } from 'knex';

/**
 * Keys of least privilege (CONTRACT.md §4 and §5): a key may be restricted
 * to some families (by path) and areas, carry a rate limit of its own, and
 * the instances record, at most once a minute, when it was last used.
 * Empty lists mean no restriction, so every key made before reads what it
 * always read.
 */
const upStatements = [
  `alter table "api_keys" add column "families" text[] not null default '{}'`,
  `alter table "api_keys" add column "areas" text[] not null default '{}'`,
  `alter table "api_keys" add column "rate_limit" integer check ("rate_limit" > 0)`,
  `alter table "api_keys" add column "last_used_at" timestamptz`,
];

const downStatements = [
  'alter table "api_keys" drop column if exists "last_used_at"',
  'alter table "api_keys" drop column if exists "rate_limit"',
  'alter table "api_keys" drop column if exists "areas"',
  'alter table "api_keys" drop column if exists "families"',
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of upStatements) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of downStatements) await knex.raw(statement);
}
