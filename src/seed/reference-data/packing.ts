import type { SeedContext } from '../seed-context.ts';

/** Northwind's carton sizes, and the packing templates that fill them. */
export async function seedPacking({ put, putNamed, brandId }: SeedContext): Promise<Record<'small' | 'medium' | 'large', string>> {
  const cartonSizes = await putNamed('carton-sizes', brandId, {
    small: { name: 'Small carton', lengthCm: '40.00', widthCm: '30.00', heightCm: '20.00' },
    medium: { name: 'Medium carton', lengthCm: '60.00', widthCm: '40.00', heightCm: '40.00' },
    large: { name: 'Large carton', lengthCm: '80.00', widthCm: '60.00', heightCm: '50.00' },
  });
  await put('packing-templates', brandId, [
    {
      name: 'Tees, 40 per medium carton, one size per carton',
      cartonSizeId: cartonSizes.medium,
      unitsPerCarton: 40,
      rules: { mixSizes: false, mixColourways: false, foldedInPolybag: true, maxGrossWeightKg: 12 },
    },
    {
      name: 'Jackets, 10 per large carton, one size per carton',
      cartonSizeId: cartonSizes.large,
      unitsPerCarton: 10,
      rules: { mixSizes: false, mixColourways: false, foldedInPolybag: true, maxGrossWeightKg: 15 },
    },
    {
      name: 'Size ratio pack, 1:2:3:2:1, small carton',
      cartonSizeId: cartonSizes.small,
      unitsPerCarton: 9,
      rules: { mixSizes: true, ratio: { XS: 1, S: 2, M: 3, L: 2, XL: 1 }, mixColourways: false },
    },
    {
      name: 'Samples, small carton, mixed',
      cartonSizeId: cartonSizes.small,
      unitsPerCarton: 10,
      rules: { mixSizes: true, mixColourways: true },
    },
  ]);
  return cartonSizes;
}
