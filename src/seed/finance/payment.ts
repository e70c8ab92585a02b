import type { SeedContext } from '../seed-context.ts';

/** A wire payment to a supplier under a payment agreement, in euros, and what it settles. */

export async function seedPayment({ put, brandId, supplierId, agreementId, code, amount, paidAt }: Pick<SeedContext, 'put' | 'brandId'> & {
  supplierId: string;
  agreementId: string;
  code: string;
  amount: string;
  paidAt: string;
}): Promise<string> {
  const [payment] = await put('payments', brandId, [
    { supplierId, paymentAgreementId: agreementId, code, status: 'completed', method: 'wire', amount, currency: 'EUR', paidAt },
  ]);
  return payment!.id;
}

/** A payment applied to an invoice, for one milestone of the agreement. */
export async function seedSettlement({ put, brandId, paymentId, invoiceId, milestoneId, amount }: Pick<SeedContext, 'put' | 'brandId'> & {
  paymentId: string;
  invoiceId: string;
  milestoneId: string;
  amount: string;
}): Promise<void> {
  await put('payment-settlements', brandId, [{ paymentId, invoiceId, paymentMilestoneId: milestoneId, amount, currency: 'EUR' }]);
}
