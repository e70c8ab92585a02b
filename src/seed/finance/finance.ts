import type { LogisticsIds } from '../logistics/logistics.ts';
import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedBankReceipt } from './bank-receipt.ts';
import { seedCommercialInvoice } from './commercial-invoice.ts';
import { seedFreightInvoice } from './freight-invoice.ts';
import { depositAndBalance, seedPaymentAgreements } from './payment-agreements.ts';
import { seedPayment, seedSettlement } from './payment.ts';

/**
 * Finance. PO-2026-0001 is paid 30/70: a deposit on order, the balance after
 * arrival, both settled against Porto Knitwear's commercial invoice and
 * confirmed by the bank. Atlas bills the freight of SH-2026-0001 (approved,
 * not yet paid). PO-2026-0002 is on 60 days net, nothing due yet.
 */

export interface FinanceIds {
  readonly invoices: Record<'commercial' | 'freight', string>;
  readonly payments: Record<'deposit' | 'balance', string>;
}

export async function seedFinance(context: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  orders: OrderIds;
  logistics: LogisticsIds;
}): Promise<FinanceIds> {
  const { clock, parties: { suppliers }, orders } = context;
  const { deposit, balance } = depositAndBalance(orders.totals.po1);
  const { agreement, milestones } = await seedPaymentAgreements(context);
  const pay = { ...context, supplierId: suppliers.porto, agreementId: agreement };

  // The deposit goes out three days after the order; the bank confirms it the next day.
  clock.jumpTo('2026-02-26T10:00:00.000Z');
  const depositPayment = await seedPayment({ ...pay, code: 'PAY-2026-0031', amount: deposit, paidAt: '2026-02-26T10:00:00.000Z' });
  clock.jumpTo('2026-02-27T09:00:00.000Z');
  await seedBankReceipt({ ...context, paymentId: depositPayment, code: 'PAY-2026-0031', amount: deposit, receivedAt: '2026-02-27T08:45:00.000Z', sizeBytes: 48_210 });

  // The deposit is applied to the commercial invoice as soon as it is booked.
  const commercial = await seedCommercialInvoice(context);
  await seedSettlement({ ...context, paymentId: depositPayment, invoiceId: commercial, milestoneId: milestones.deposit, amount: deposit });
  const freight = await seedFreightInvoice(context);

  // The balance, due seven days after arrival.
  clock.jumpTo('2026-04-13T09:30:00.000Z');
  const balancePayment = await seedPayment({ ...pay, code: 'PAY-2026-0058', amount: balance, paidAt: '2026-04-13T09:30:00.000Z' });
  await seedSettlement({ ...context, paymentId: balancePayment, invoiceId: commercial, milestoneId: milestones.balance, amount: balance });
  clock.jumpTo('2026-04-14T09:00:00.000Z');
  await seedBankReceipt({ ...context, paymentId: balancePayment, code: 'PAY-2026-0058', amount: balance, receivedAt: '2026-04-14T08:50:00.000Z', sizeBytes: 51_377 });

  return {
    invoices: { commercial, freight },
    payments: { deposit: depositPayment, balance: balancePayment },
  };
}
