import type { Knex } from 'knex';
import type { Registry } from '../engine/definition/registry.ts';
import { seedBillOfMaterials } from './bill-of-materials/bill-of-materials.ts';
import { seedCatalog } from './catalog/catalog.ts';
import { seedDerivedRows } from './derived-rows/derived-rows.ts';
import { seedDocuments } from './documents/documents.ts';
import { seedFinance } from './finance/finance.ts';
import { createIdSequence } from './id-sequence.ts';
import { seedLogistics } from './logistics/logistics.ts';
import { seedOrders } from './orders/orders.ts';
import { seedParties } from './parties/parties.ts';
import { createPut } from './put.ts';
import { seedReferenceData } from './reference-data/reference-data.ts';
import { createClock } from './seed-clock.ts';
import type { SeedContext } from './seed-context.ts';
import { seedSourcing } from './sourcing/sourcing.ts';
import { seedSouthpeak } from './southpeak.ts';

/**
 * The demo data set: Northwind Outfitters' spring/summer 2026 season, from
 * reference data and partners through products, BOMs, quotes and samples to
 * orders, production, shipping, receiving, invoicing and payment, with
 * records in every family, linked by id the way a client follows them. And
 * Southpeak Supply, a second brand whose data Northwind's key must never see.
 *
 * Each group is a folder here, one file per step of its story; it takes the
 * seed context (`put`, `putNamed`, the clock, `brandId`) and the ids of
 * earlier groups, and returns the ids later groups need. Groups run in the
 * order foreign keys need; the clock stamps each step at the moment of the
 * season it happened.
 *
 * A family no story writes gets rows derived from its definition
 * (`derived-rows/`), written last: adding a family to `resources/` needs no
 * seed code, and changes none of the stories' rows.
 */

export const DEMO_BRAND = Object.freeze({ slug: 'northwind', name: 'Northwind Outfitters' });
export const OTHER_BRAND = Object.freeze({ slug: 'southpeak', name: 'Southpeak Supply Co.' });

/** Loads the demo data unless the demo brand exists; true when it loaded. */
export async function seedDemo({ db, registry }: { db: Knex; registry: Registry }): Promise<boolean> {
  const exists = await db('brands').where({ slug: DEMO_BRAND.slug }).first();
  if (exists) return false;
  await db.transaction(async (trx) => {
    const clock = createClock('2026-01-05T08:00:00.000Z');
    const newId = createIdSequence('demo');
    const { put, putNamed, written } = createPut({ db: trx, registry, clock, newId });

    const northwind = newId();
    const southpeak = newId();
    await put('brands', null, [
      { id: northwind, ...DEMO_BRAND },
      { id: southpeak, ...OTHER_BRAND },
    ]);

    const context: SeedContext = { put, putNamed, clock, newId, brandId: northwind };
    const reference = await seedReferenceData(context);
    const parties = await seedParties({ ...context, reference });
    const catalog = await seedCatalog({ ...context, reference });
    const bom = await seedBillOfMaterials({ ...context, reference, parties, catalog });
    const sourcing = await seedSourcing({ ...context, reference, parties, catalog });
    const orders = await seedOrders({ ...context, reference, parties, catalog });
    const logistics = await seedLogistics({ ...context, reference, parties, catalog, orders });
    const finance = await seedFinance({ ...context, reference, parties, orders, logistics });
    await seedDocuments({ ...context, reference, parties, catalog, bom, sourcing, orders, logistics, finance });

    await seedSouthpeak({ ...context, brandId: southpeak, reference });

    await seedDerivedRows({ ...context, registry, written });
  });
  return true;
}
