import type { Knex } from 'knex';

/**
 * API keys: only a SHA-256 hash of each key is stored, looked up by that hash.
 * A key is global, or scoped to the brands listed in api_key_brands.
 */
const upStatements = [
  `create table "api_keys" (
    "id" uuid primary key default gen_random_uuid(),
    "key_hash" text not null unique,
    "hint" text not null,
    "name" text,
    "is_global" boolean not null default false,
    "expires_at" timestamptz,
    "revoked_at" timestamptz,
    "created_at" timestamptz not null default now()
  )`,
  `create table "api_key_brands" (
    "key_id" uuid not null references "api_keys" ("id") on delete cascade,
    "brand_id" uuid not null references "brands" ("id") on delete cascade,
    primary key ("key_id", "brand_id")
  )`,
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of upStatements) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists "api_key_brands"');
  await knex.raw('drop table if exists "api_keys"');
}
