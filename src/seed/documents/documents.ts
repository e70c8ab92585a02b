import type { BomIds } from '../bill-of-materials/bill-of-materials.ts';
import type { CatalogIds } from '../catalog/catalog.ts';
import type { FinanceIds } from '../finance/finance.ts';
import type { LogisticsIds } from '../logistics/logistics.ts';
import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import type { SourcingIds } from '../sourcing/sourcing.ts';
import { seedDevelopmentFiles } from './development-files.ts';
import { seedInvoiceFiles } from './invoice-files.ts';
import { seedOrderNotes } from './order-notes.ts';
import { seedSampleFiles } from './sample-files.ts';
import { seedShippingFiles } from './shipping-files.ts';

/**
 * Attachments: the files (typed by document type), images and notes that
 * hang off records through `entityType` + `entityId`, written last because
 * they point at every other group. (Files that another record points at, a
 * packing list's PDF or a payment's bank confirmation, are written by their
 * group with `documentFile`, just before the record.)
 */
export async function seedDocuments(context: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
  bom: BomIds;
  sourcing: SourcingIds;
  orders: OrderIds;
  logistics: LogisticsIds;
  finance: FinanceIds;
}): Promise<void> {
  await seedDevelopmentFiles(context);
  await seedSampleFiles(context);
  await seedOrderNotes(context);
  await seedShippingFiles(context);
  await seedInvoiceFiles(context);
}
