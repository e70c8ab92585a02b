import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import type { PartnerName } from './partners.ts';

/**
 * Places: the partners' sites, the ports on the way, and Northwind's own head
 * office and distribution centre.
 */

export type LocationName = 'portoFactory' | 'saigonFactory' | 'ningboWarehouse' | 'atlasOffice' | 'leixoes' | 'rotterdam' | 'catLai' | 'dc' | 'hq';

type Country = keyof ReferenceIds['countries'];

interface LocationPlan {
  readonly code: string;
  readonly name: string;
  readonly type: string;
  readonly addressLine1: string;
  readonly addressLine2: string | null;
  readonly city: string;
  readonly region: string;
  readonly postalCode: string;
  readonly country: Country;
  readonly latitude: string;
  readonly longitude: string;
}

const LOCATIONS: Readonly<Record<LocationName, LocationPlan>> = {
  portoFactory: {
    code: 'PKW-MAIA', name: 'Porto Knitwear factory, Maia', type: 'factory', addressLine1: 'Zona Industrial da Maia I, Sector X, Lote 215', addressLine2: null,
    city: 'Maia', region: 'Porto', postalCode: '4470-122', country: 'PT', latitude: '41.235700', longitude: '-8.619900',
  },
  saigonFactory: {
    code: 'SGA-HCM', name: 'Saigon Apparel factory, Tan Thuan EPZ', type: 'factory', addressLine1: 'Lot C12, Tan Thuan Export Processing Zone', addressLine2: 'Tan Thuan Dong Ward, District 7',
    city: 'Ho Chi Minh City', region: 'Ho Chi Minh City', postalCode: '700000', country: 'VN', latitude: '10.759900', longitude: '106.726900',
  },
  ningboWarehouse: {
    code: 'NBT-NGB', name: 'Ningbo Trims warehouse', type: 'warehouse', addressLine1: 'No. 88 Qiming Road', addressLine2: 'Yinzhou District',
    city: 'Ningbo', region: 'Zhejiang', postalCode: '315100', country: 'CN', latitude: '29.821000', longitude: '121.547000',
  },
  atlasOffice: {
    code: 'ATL-RTM', name: 'Atlas Forwarding, Rotterdam office', type: 'office', addressLine1: 'Waalhaven Zuidzijde 19', addressLine2: null,
    city: 'Rotterdam', region: 'Zuid-Holland', postalCode: '3089 JH', country: 'NL', latitude: '51.891000', longitude: '4.429000',
  },
  leixoes: {
    code: 'PTLEI', name: 'Port of Leixões', type: 'port', addressLine1: 'Avenida da Liberdade', addressLine2: null,
    city: 'Matosinhos', region: 'Porto', postalCode: '4450-718', country: 'PT', latitude: '41.184900', longitude: '-8.703600',
  },
  rotterdam: {
    code: 'NLRTM', name: 'Port of Rotterdam', type: 'port', addressLine1: 'Europaweg 875', addressLine2: 'Maasvlakte',
    city: 'Rotterdam', region: 'Zuid-Holland', postalCode: '3199 LC', country: 'NL', latitude: '51.950000', longitude: '4.050000',
  },
  catLai: {
    code: 'VNCLI', name: 'Cat Lai Port, Ho Chi Minh City', type: 'port', addressLine1: '1295B Nguyen Thi Dinh', addressLine2: 'Cat Lai Ward, Thu Duc City',
    city: 'Ho Chi Minh City', region: 'Ho Chi Minh City', postalCode: '700000', country: 'VN', latitude: '10.762200', longitude: '106.790600',
  },
  dc: {
    code: 'NW-DC-TLB', name: 'Northwind DC Tilburg', type: 'warehouse', addressLine1: 'Kraaivenstraat 36', addressLine2: 'Dock 4-7',
    city: 'Tilburg', region: 'Noord-Brabant', postalCode: '5048 AB', country: 'NL', latitude: '51.583200', longitude: '5.048500',
  },
  hq: {
    code: 'NW-HQ-AMS', name: 'Northwind HQ Amsterdam', type: 'office', addressLine1: 'Keizersgracht 452', addressLine2: '3rd floor',
    city: 'Amsterdam', region: 'Noord-Holland', postalCode: '1016 GD', country: 'NL', latitude: '52.366400', longitude: '4.885100',
  },
};

export async function seedLocations({ put, putNamed, brandId, reference, partners }: SeedContext & {
  reference: ReferenceIds;
  partners: Record<PartnerName, string>;
}): Promise<Record<LocationName, string>> {
  const records = Object.fromEntries(Object.entries(LOCATIONS).map(([name, { country, ...location }]) => [
    name, { ...location, countryId: reference.countries[country] },
  ])) as Record<LocationName, Omit<LocationPlan, 'country'> & { countryId: string }>;
  const locations = await putNamed('locations', brandId, records);
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
  return locations;
}
