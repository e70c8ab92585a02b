import type { SeedContext } from '../seed-context.ts';

/**
 * The shared rows every brand sees (no brand): countries, couriers, payment
 * terms and document types.
 */

export interface SharedReferenceIds {
  readonly countries: Record<'PT' | 'VN' | 'CN' | 'NL' | 'US' | 'GB', string>;
  readonly couriers: Record<'maersk' | 'dhlExpress' | 'dsvRoad', string>;
  readonly paymentTerms: Record<'net30' | 'net60' | 'deposit30Balance70', string>;
  readonly documentTypes: Record<'commercialInvoice' | 'freightInvoice' | 'packingList' | 'billOfLading' | 'techPack' | 'testReport' | 'paymentConfirmation', string>;
}

export async function seedSharedReferenceData({ putNamed }: SeedContext): Promise<SharedReferenceIds> {
  const countries = await putNamed('countries', null, {
    PT: { code: 'PT', name: 'Portugal', region: 'Europe' },
    VN: { code: 'VN', name: 'Viet Nam', region: 'South-East Asia' },
    CN: { code: 'CN', name: 'China', region: 'East Asia' },
    NL: { code: 'NL', name: 'Netherlands', region: 'Europe' },
    US: { code: 'US', name: 'United States', region: 'North America' },
    GB: { code: 'GB', name: 'United Kingdom', region: 'Europe' },
  });
  const couriers = await putNamed('couriers', null, {
    maersk: { code: 'MAEU', name: 'Maersk', mode: 'ocean', trackingUrlTemplate: 'https://www.maersk.com/tracking/{trackingNumber}' },
    dhlExpress: { code: 'DHL', name: 'DHL Express', mode: 'express', trackingUrlTemplate: 'https://www.dhl.com/nl-en/home/tracking.html?tracking-id={trackingNumber}' },
    dsvRoad: { code: 'DSVR', name: 'DSV Road', mode: 'road', trackingUrlTemplate: 'https://www.dsv.com/en/tools/track-and-trace?ref={trackingNumber}' },
  });
  const paymentTerms = await putNamed('payment-terms', null, {
    net30: { code: 'NET30', name: '30 days net', netDays: 30, description: 'Invoice paid in full 30 days after the invoice date.' },
    net60: { code: 'NET60', name: '60 days net', netDays: 60, description: 'Invoice paid in full 60 days after the invoice date.' },
    deposit30Balance70: {
      code: 'DEP30-BAL70',
      name: '30% deposit, 70% balance',
      netDays: 7,
      description: '30% deposit on order confirmation; 70% balance within 7 days of the goods arriving at destination.',
    },
  });
  const documentTypes = await putNamed('document-types', null, {
    commercialInvoice: { code: 'CINV', name: 'Commercial invoice', category: 'commercial' },
    freightInvoice: { code: 'FINV', name: 'Freight invoice', category: 'commercial' },
    packingList: { code: 'PL', name: 'Packing list', category: 'logistics' },
    billOfLading: { code: 'BL', name: 'Bill of lading', category: 'logistics' },
    techPack: { code: 'TECHPACK', name: 'Tech pack', category: 'technical' },
    testReport: { code: 'TEST', name: 'Test report', category: 'compliance' },
    paymentConfirmation: { code: 'PAYCONF', name: 'Payment confirmation', category: 'finance' },
  });
  return { countries, couriers, paymentTerms, documentTypes };
}
