import { documentFile } from '../document-file.ts';
import type { FinanceIds } from '../finance/finance.ts';
import { PEOPLE } from '../people.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';

/** Invoicing: the PDFs of Porto's commercial invoice and Atlas's freight invoice. */
export async function seedInvoiceFiles({ put, clock, brandId, reference: { documentTypes }, finance }: SeedContext & {
  reference: ReferenceIds;
  finance: FinanceIds;
}): Promise<void> {
  clock.jumpTo('2026-03-30T17:30:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.commercialInvoice, entityType: 'invoice', entityId: finance.invoices.commercial,
      name: 'Commercial invoice FT 2026/0142', fileName: 'PKW_FT-2026-0142.pdf', sizeBytes: 184_552, uploadedByUserId: PEOPLE.finance,
    }),
  ]);
  clock.jumpTo('2026-04-10T10:30:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.freightInvoice, entityType: 'invoice', entityId: finance.invoices.freight,
      name: 'Freight invoice ATL-26-0918', fileName: 'ATL-26-0918.pdf', sizeBytes: 96_114, uploadedByUserId: PEOPLE.finance,
    }),
  ]);
}
