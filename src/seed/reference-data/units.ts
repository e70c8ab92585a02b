import type { SeedContext } from '../seed-context.ts';

/** Units of measure: the shared ones, and one of Northwind's own (trims come by the dozen from Ningbo). */
export async function seedUnits({ putNamed, brandId }: SeedContext): Promise<Record<'pcs' | 'cm' | 'm' | 'kg' | 'dozen', string>> {
  const shared = await putNamed('units-of-measure', null, {
    pcs: { code: 'pcs', name: 'Pieces', type: 'count' },
    cm: { code: 'cm', name: 'Centimetres', type: 'length' },
    m: { code: 'm', name: 'Metres', type: 'length' },
    kg: { code: 'kg', name: 'Kilograms', type: 'weight' },
  });
  const own = await putNamed('units-of-measure', brandId, { dozen: { code: 'dz', name: 'Dozen', type: 'count' } });
  return { ...shared, ...own };
}
