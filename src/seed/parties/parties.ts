import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedLocations, type LocationName } from './locations.ts';
import { seedPartners, type PartnerName } from './partners.ts';
import { seedSuppliers } from './suppliers.ts';

/**
 * Parties and places: the two factories, the trims supplier and the
 * forwarder, their people and sites, the ports on the way, and Northwind's
 * own head office and distribution centre.
 */

export interface PartyIds {
  readonly partners: Record<PartnerName, string>;
  readonly suppliers: Record<PartnerName, string>;
  readonly locations: Record<LocationName, string>;
}

export async function seedParties(context: SeedContext & { reference: ReferenceIds }): Promise<PartyIds> {
  context.clock.jumpTo('2026-01-06T09:00:00.000Z');
  const partners = await seedPartners(context);
  const locations = await seedLocations({ ...context, partners });
  const suppliers = await seedSuppliers({ ...context, partners });
  return { partners, suppliers, locations };
}
