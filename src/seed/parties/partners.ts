import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';

/** The partners: two factories, the trims supplier and the forwarder, and the people Northwind deals with there. */

export type PartnerName = 'porto' | 'saigon' | 'ningbo' | 'atlas';

export async function seedPartners({ put, putNamed, brandId, reference }: SeedContext & { reference: ReferenceIds }): Promise<Record<PartnerName, string>> {
  const { countries } = reference;
  const partners = await putNamed('partners', brandId, {
    porto: { code: 'PKW', name: 'Porto Knitwear Lda', type: 'factory', status: 'active', countryId: countries.PT, website: 'https://www.portoknitwear.pt' },
    saigon: { code: 'SGA', name: 'Saigon Apparel Co.', type: 'factory', status: 'active', countryId: countries.VN, website: 'https://www.saigonapparel.vn' },
    ningbo: { code: 'NBT', name: 'Ningbo Trims Ltd.', type: 'supplier', status: 'active', countryId: countries.CN, website: 'https://www.ningbotrims.cn' },
    atlas: { code: 'ATL', name: 'Atlas Forwarding B.V.', type: 'forwarder', status: 'active', countryId: countries.NL, website: 'https://www.atlasforwarding.nl' },
  });
  await put('contacts', brandId, [
    { partnerId: partners.porto, name: 'Ana Ribeiro', email: 'ana.ribeiro@portoknitwear.pt', phone: '+351 229 440 118', role: 'sales', isPrimary: true },
    { partnerId: partners.porto, name: 'Miguel Costa', email: 'miguel.costa@portoknitwear.pt', phone: '+351 229 440 131', role: 'quality', isPrimary: false },
    { partnerId: partners.saigon, name: 'Nguyen Thi Lan', email: 'lan.nguyen@saigonapparel.vn', phone: '+84 28 3770 1452', role: 'sales', isPrimary: true },
    { partnerId: partners.saigon, name: 'Tran Van Duc', email: 'duc.tran@saigonapparel.vn', phone: '+84 28 3770 1460', role: 'logistics', isPrimary: false },
    { partnerId: partners.ningbo, name: 'Chen Wei', email: 'chen.wei@ningbotrims.cn', phone: '+86 574 8790 2231', role: 'sales', isPrimary: true },
    { partnerId: partners.atlas, name: 'Sanne de Vries', email: 's.devries@atlasforwarding.nl', phone: '+31 10 294 7710', role: 'logistics', isPrimary: true },
    { partnerId: partners.atlas, name: 'Pieter Jansen', email: 'p.jansen@atlasforwarding.nl', phone: '+31 10 294 7725', role: 'finance', isPrimary: false },
  ]);
  return partners;
}
