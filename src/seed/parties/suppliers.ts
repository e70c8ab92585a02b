import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import type { PartnerName } from './partners.ts';

/** Each partner as a supplier: its payment terms, currency and lead time. */
export async function seedSuppliers({ putNamed, brandId, reference, partners }: SeedContext & {
  reference: ReferenceIds;
  partners: Record<PartnerName, string>;
}): Promise<Record<PartnerName, string>> {
  const { countries, paymentTerms } = reference;
  return putNamed('suppliers', brandId, {
    porto: {
      partnerId: partners.porto, code: 'SUP-PKW', name: 'Porto Knitwear Lda', status: 'active',
      countryId: countries.PT, paymentTermId: paymentTerms.deposit30Balance70, currency: 'EUR', leadTimeDays: 45,
    },
    saigon: {
      partnerId: partners.saigon, code: 'SUP-SGA', name: 'Saigon Apparel Co.', status: 'active',
      countryId: countries.VN, paymentTermId: paymentTerms.net60, currency: 'USD', leadTimeDays: 60,
    },
    ningbo: {
      partnerId: partners.ningbo, code: 'SUP-NBT', name: 'Ningbo Trims Ltd.', status: 'active',
      countryId: countries.CN, paymentTermId: paymentTerms.net30, currency: 'USD', leadTimeDays: 21,
    },
    atlas: {
      partnerId: partners.atlas, code: 'SUP-ATL', name: 'Atlas Forwarding B.V.', status: 'active',
      countryId: countries.NL, paymentTermId: paymentTerms.net30, currency: 'EUR', leadTimeDays: null,
    },
  });
}
