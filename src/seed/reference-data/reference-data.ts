import type { SeedContext } from '../seed-context.ts';
import { seedChecklists } from './checklists.ts';
import { seedPacking } from './packing.ts';
import { seedPalette, type PaletteIds } from './palette.ts';
import { seedSeasonPlan, type SeasonPlanIds } from './season-plan.ts';
import { seedSharedReferenceData, type SharedReferenceIds } from './shared-reference-data.ts';
import { seedSizes, type SizeIds } from './sizes.ts';
import { seedUnits } from './units.ts';

/**
 * Reference data: what every other group points at. Countries, couriers,
 * payment terms, document types and units are shared rows (no brand); the rest
 * is Northwind's own palette, sizes, size curve, checklists and season plan.
 */

export interface ReferenceIds extends SharedReferenceIds, PaletteIds, SizeIds, SeasonPlanIds {
  readonly units: Record<'pcs' | 'cm' | 'm' | 'kg' | 'dozen', string>;
  readonly cartonSizes: Record<'small' | 'medium' | 'large', string>;
  readonly checklists: Record<'topsReview' | 'outerwearReview' | 'preShipment', string>;
}

export async function seedReferenceData(context: SeedContext): Promise<ReferenceIds> {
  context.clock.jumpTo('2026-01-05T09:00:00.000Z');
  const shared = await seedSharedReferenceData(context);
  const units = await seedUnits(context);
  const cartonSizes = await seedPacking(context);
  const palette = await seedPalette(context);
  const sizes = await seedSizes(context);
  const checklists = await seedChecklists(context);
  const seasonPlan = await seedSeasonPlan(context);
  return { ...shared, units, cartonSizes, ...palette, ...sizes, checklists, ...seasonPlan };
}
