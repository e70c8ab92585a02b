import type { Knex } from 'knex';
import type { Registry } from '../engine/definition/registry.ts';
import { DEMO_BRAND, seedDemo } from '../seed/demo-seed.ts';
import { findGrant } from './auth/api-keys.ts';
import { createKey } from './auth/key-admin.ts';
import { readDemoKey, writeDemoKey } from '../db/connection/embedded-data-dir.ts';

/**
 * First start of the embedded database: load the demo data, and keep a demo
 * key for the demo brand in the data folder so every start can print it.
 * A demo key that was revoked or has expired is replaced.
 */
export async function prepareDemo({ db, registry, dataDir }: { db: Knex; registry: Registry; dataDir: string }): Promise<{ brand: string; key: string; seeded: boolean }> {
  const seeded = await seedDemo({ db, registry });
  const existing = await readDemoKey(dataDir);
  const grant = existing ? await findGrant(db, { key: existing, brandSlug: DEMO_BRAND.slug }) : null;
  if (existing && grant?.allowed) return { brand: DEMO_BRAND.slug, key: existing, seeded };
  const { key } = await createKey(db, { brands: [DEMO_BRAND.slug], global: false, expiresAt: null, name: 'demo key (embedded database)' });
  await writeDemoKey(dataDir, key);
  return { brand: DEMO_BRAND.slug, key, seeded };
}
