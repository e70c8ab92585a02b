import { documentFile } from '../document-file.ts';
import { PEOPLE } from '../people.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';

/** The bank's confirmation of a payment, filed as a document, and the receipt that points at it. */
export async function seedBankReceipt({ put, brandId, reference, paymentId, code, amount, receivedAt, sizeBytes }: Pick<SeedContext, 'put' | 'brandId'> & {
  reference: ReferenceIds;
  paymentId: string;
  /** The payment's code, as the bank quotes it. */
  code: string;
  amount: string;
  receivedAt: string;
  /** Size of the confirmation's PDF. */
  sizeBytes: number;
}): Promise<void> {
  const [confirmation] = await put('documents', brandId, [documentFile({
    documentTypeId: reference.documentTypes.paymentConfirmation, entityType: 'payment', entityId: paymentId,
    name: `Bank confirmation ${code}`, fileName: `${code}_confirmation.pdf`, sizeBytes, uploadedByUserId: PEOPLE.finance,
  })]);
  await put('payment-receipts', brandId, [{
    paymentId, documentId: confirmation!.id, reference: `SEPA ${code} NORTHWIND OUTFITTERS BV`, amount, currency: 'EUR', receivedAt,
  }]);
}
