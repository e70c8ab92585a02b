import type { SeedContext } from '../seed-context.ts';
import { SIZES } from './sizes.ts';

/**
 * Northwind's palette, and the options a colourway is described by: a colour
 * option with a value per colour of the palette, a size option with a value
 * per size.
 */

export const COLOURS = Object.freeze({
  navy: { code: 'NAV', name: 'Navy', hexCode: '#1F2A44', pantoneCode: '19-4024 TCX' },
  oat: { code: 'OAT', name: 'Oat', hexCode: '#E8DCC4', pantoneCode: '12-0910 TCX' },
  forest: { code: 'FOR', name: 'Forest', hexCode: '#2F4F3A', pantoneCode: '19-5420 TCX' },
});
export type Colour = keyof typeof COLOURS;

export interface PaletteIds {
  readonly colors: Record<Colour, string>;
  /** The colour option's values (Navy, Oat, Forest), which colourways link to. */
  readonly colorOptionValues: Record<Colour, string>;
}

export async function seedPalette({ put, putNamed, brandId }: SeedContext): Promise<PaletteIds> {
  const colors = await putNamed('colors', brandId, {
    navy: { ...COLOURS.navy, status: 'active' },
    oat: { ...COLOURS.oat, status: 'active' },
    forest: { ...COLOURS.forest, status: 'active' },
  });
  const options = await putNamed('options', brandId, { color: { name: 'Color' }, size: { name: 'Size' } });
  const colorOptionValues = await putNamed('option-values', brandId, {
    navy: { optionId: options.color, name: 'Navy', code: 'NAV', status: 'active', sequence: 1, hexCode: COLOURS.navy.hexCode, swatchVersion: 2 },
    oat: { optionId: options.color, name: 'Oat', code: 'OAT', status: 'active', sequence: 2, hexCode: COLOURS.oat.hexCode, swatchVersion: 1 },
    forest: { optionId: options.color, name: 'Forest', code: 'FOR', status: 'active', sequence: 3, hexCode: COLOURS.forest.hexCode, swatchVersion: 1 },
  });
  await put('option-values', brandId, SIZES.map((name, i) => ({ optionId: options.size, name, code: name, status: 'active', sequence: i + 1 })));
  return { colors, colorOptionValues };
}
