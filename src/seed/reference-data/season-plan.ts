import type { SeedContext } from '../seed-context.ts';

/**
 * The SS26 season plan: its collections, launch windows (drops) and tags, and
 * the custom fields Northwind keeps on products, orders and suppliers.
 */

export interface SeasonPlanIds {
  readonly collections: Record<'core' | 'coastal', string>;
  readonly launchWindows: Record<'drop1' | 'drop2', string>;
  readonly tags: Record<'organic' | 'essentials' | 'waterproof' | 'newIn', string>;
}

export async function seedSeasonPlan({ put, putNamed, brandId }: SeedContext): Promise<SeasonPlanIds> {
  const collections = await putNamed('collections', brandId, {
    core: { code: 'SS26-CORE', name: 'SS26 Core', season: 'SS26', status: 'active' },
    coastal: { code: 'SS26-COASTAL', name: 'SS26 Coastal', season: 'SS26', status: 'active' },
  });
  const launchWindows = await putNamed('launch-windows', brandId, {
    drop1: { code: 'SS26-D1', name: 'Drop 1', startsOn: '2026-04-15', endsOn: '2026-05-31', status: 'open' },
    drop2: { code: 'SS26-D2', name: 'Drop 2', startsOn: '2026-06-01', endsOn: '2026-07-31', status: 'planned' },
  });
  const tags = await putNamed('tags', brandId, {
    organic: { name: 'Organic cotton', code: 'organic' },
    essentials: { name: 'Essentials', code: 'essentials' },
    waterproof: { name: 'Waterproof', code: 'waterproof' },
    newIn: { name: 'New in', code: 'new-in' },
  });
  await put('custom-field-definitions', brandId, [
    { entityType: 'product', key: 'fabric_mill', label: 'Fabric mill', dataType: 'text', options: null, required: false },
    { entityType: 'product', key: 'care_code', label: 'Care code', dataType: 'select', options: ['30C_GENTLE', '40C', 'HAND_WASH'], required: true },
    { entityType: 'order', key: 'season', label: 'Season', dataType: 'select', options: ['SS26', 'FW26'], required: true },
    { entityType: 'supplier', key: 'audit_score', label: 'Last social audit score', dataType: 'number', options: null, required: false },
    { entityType: 'supplier', key: 'last_audit_on', label: 'Last social audit', dataType: 'date', options: null, required: false },
  ]);
  return { collections, launchWindows, tags };
}
