import type { ReferenceIds } from './reference-data.ts';
import type { SeedContext } from './seed-context.ts';

/**
 * Parties and places: the two factories, the trims supplier and the
 * forwarder, their people and sites, the ports on the way, and Northwind's
 * own head office and distribution centre.
 */

type PartnerName = 'porto' | 'saigon' | 'ningbo' | 'atlas';

export interface PartyIds {
  readonly partners: Record<PartnerName, string>;
  readonly suppliers: Record<PartnerName, string>;
  readonly locations: Record<'portoFactory' | 'saigonFactory' | 'ningboWarehouse' | 'atlasOffice' | 'leixoes' | 'rotterdam' | 'catLai' | 'dc' | 'hq', string>;
}

export async function seedParties({ put, putNamed, clock, brandId, reference }: SeedContext & { reference: ReferenceIds }): Promise<PartyIds> {
  const { countries, paymentTerms } = reference;
  clock.jumpTo('2026-01-06T09:00:00.000Z');

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

  const locations = await putNamed('locations', brandId, {
    portoFactory: {
      code: 'PKW-MAIA', name: 'Porto Knitwear factory, Maia', type: 'factory',
      addressLine1: 'Zona Industrial da Maia I, Sector X, Lote 215', addressLine2: null,
      city: 'Maia', region: 'Porto', postalCode: '4470-122', countryId: countries.PT, latitude: '41.235700', longitude: '-8.619900',
    },
    saigonFactory: {
      code: 'SGA-HCM', name: 'Saigon Apparel factory, Tan Thuan EPZ', type: 'factory',
      addressLine1: 'Lot C12, Tan Thuan Export Processing Zone', addressLine2: 'Tan Thuan Dong Ward, District 7',
      city: 'Ho Chi Minh City', region: 'Ho Chi Minh City', postalCode: '700000', countryId: countries.VN, latitude: '10.759900', longitude: '106.726900',
    },
    ningboWarehouse: {
      code: 'NBT-NGB', name: 'Ningbo Trims warehouse', type: 'warehouse',
      addressLine1: 'No. 88 Qiming Road', addressLine2: 'Yinzhou District',
      city: 'Ningbo', region: 'Zhejiang', postalCode: '315100', countryId: countries.CN, latitude: '29.821000', longitude: '121.547000',
    },
    atlasOffice: {
      code: 'ATL-RTM', name: 'Atlas Forwarding, Rotterdam office', type: 'office',
      addressLine1: 'Waalhaven Zuidzijde 19', addressLine2: null,
      city: 'Rotterdam', region: 'Zuid-Holland', postalCode: '3089 JH', countryId: countries.NL, latitude: '51.891000', longitude: '4.429000',
    },
    leixoes: {
      code: 'PTLEI', name: 'Port of Leixões', type: 'port',
      addressLine1: 'Avenida da Liberdade', addressLine2: null,
      city: 'Matosinhos', region: 'Porto', postalCode: '4450-718', countryId: countries.PT, latitude: '41.184900', longitude: '-8.703600',
    },
    rotterdam: {
      code: 'NLRTM', name: 'Port of Rotterdam', type: 'port',
      addressLine1: 'Europaweg 875', addressLine2: 'Maasvlakte',
      city: 'Rotterdam', region: 'Zuid-Holland', postalCode: '3199 LC', countryId: countries.NL, latitude: '51.950000', longitude: '4.050000',
    },
    catLai: {
      code: 'VNCLI', name: 'Cat Lai Port, Ho Chi Minh City', type: 'port',
      addressLine1: '1295B Nguyen Thi Dinh', addressLine2: 'Cat Lai Ward, Thu Duc City',
      city: 'Ho Chi Minh City', region: 'Ho Chi Minh City', postalCode: '700000', countryId: countries.VN, latitude: '10.762200', longitude: '106.790600',
    },
    dc: {
      code: 'NW-DC-TLB', name: 'Northwind DC Tilburg', type: 'warehouse',
      addressLine1: 'Kraaivenstraat 36', addressLine2: 'Dock 4-7',
      city: 'Tilburg', region: 'Noord-Brabant', postalCode: '5048 AB', countryId: countries.NL, latitude: '51.583200', longitude: '5.048500',
    },
    hq: {
      code: 'NW-HQ-AMS', name: 'Northwind HQ Amsterdam', type: 'office',
      addressLine1: 'Keizersgracht 452', addressLine2: '3rd floor',
      city: 'Amsterdam', region: 'Noord-Holland', postalCode: '1016 GD', countryId: countries.NL, latitude: '52.366400', longitude: '4.885100',
    },
  });
  await put('brand-locations', brandId, [
    { locationId: locations.hq, role: 'headquarters', isDefault: true },
    { locationId: locations.dc, role: 'distribution_center', isDefault: true },
  ]);
  await put('partner-locations', brandId, [
    { partnerId: partners.porto, locationId: locations.portoFactory, role: 'factory' },
    { partnerId: partners.saigon, locationId: locations.saigonFactory, role: 'factory' },
    { partnerId: partners.ningbo, locationId: locations.ningboWarehouse, role: 'warehouse' },
    { partnerId: partners.atlas, locationId: locations.atlasOffice, role: 'office' },
  ]);

  const suppliers = await putNamed('suppliers', brandId, {
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

  return { partners, suppliers, locations };
}
