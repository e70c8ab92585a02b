import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { money } from '../values.ts';

/**
 * The payment plans, agreed with the orders: PO-2026-0001 on 30% deposit and
 * 70% balance after arrival, PO-2026-0002 in full 60 days after the bill of
 * lading.
 */

/** The tee order's deposit (30%, to the cent) and balance (the rest), as decimal strings. */
export function depositAndBalance(total: string): { deposit: string; balance: string } {
  const deposit = money(Number(total) * 0.3);
  return { deposit, balance: money(Number(total) - Number(deposit)) };
}

export interface PaymentAgreementIds {
  /** The tee order's agreement. */
  readonly agreement: string;
  readonly milestones: Record<'deposit' | 'balance', string>;
}

export async function seedPaymentAgreements({ put, putNamed, clock, brandId, reference, parties: { suppliers }, orders }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  orders: OrderIds;
}): Promise<PaymentAgreementIds> {
  const { deposit, balance } = depositAndBalance(orders.totals.po1);
  clock.jumpTo('2026-02-23T11:00:00.000Z');
  const agreements = await putNamed('payment-agreements', brandId, {
    po1: { orderId: orders.orders.po1, supplierId: suppliers.porto, paymentTermId: reference.paymentTerms.deposit30Balance70, currency: 'EUR', totalAmount: orders.totals.po1, status: 'completed' },
  });
  const milestones = await putNamed('payment-milestones', brandId, {
    deposit: { paymentAgreementId: agreements.po1, sequence: 1, name: 'Deposit', percent: '30.00', amount: deposit, currency: 'EUR', dueOn: '2026-03-02', trigger: 'on_order', status: 'paid' },
    balance: { paymentAgreementId: agreements.po1, sequence: 2, name: 'Balance', percent: '70.00', amount: balance, currency: 'EUR', dueOn: '2026-04-14', trigger: 'after_arrival', status: 'paid' },
  });
  clock.jumpTo('2026-03-06T10:00:00.000Z');
  const po2 = await putNamed('payment-agreements', brandId, {
    po2: { orderId: orders.orders.po2, supplierId: suppliers.saigon, paymentTermId: reference.paymentTerms.net60, currency: 'USD', totalAmount: orders.totals.po2, status: 'active' },
  });
  await put('payment-milestones', brandId, [
    { paymentAgreementId: po2.po2, sequence: 1, name: 'Payment in full, 60 days after bill of lading', percent: '100.00', amount: orders.totals.po2, currency: 'USD', dueOn: '2026-06-08', trigger: 'after_shipment', status: 'pending' },
  ]);
  return { agreement: agreements.po1, milestones };
}
