import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import { PEOPLE } from '../people.ts';
import type { SeedContext } from '../seed-context.ts';
import { noteContent } from './note-content.ts';

/** The buyer's notes when the tee order is amended: on the order, and on Porto's certificates. */
export async function seedOrderNotes({ put, clock, brandId, parties, orders }: SeedContext & { parties: PartyIds; orders: OrderIds }): Promise<void> {
  clock.jumpTo('2026-02-27T15:00:00.000Z');
  await put('notes', brandId, [
    { entityType: 'order', entityId: orders.orders.po1, lastEditedById: PEOPLE.buyer, content: noteContent('Navy L raised to 120 after wholesale pre-orders (amendment 1). Porto confirmed the same unit price.') },
    { entityType: 'partner', entityId: parties.partners.porto, lastEditedById: PEOPLE.buyer, content: noteContent('GOTS scope certificate valid until 2027-01-31. Social audit (SMETA 4-pillar) passed in November 2025.') },
  ]);
}
