import type { DistributionPlan } from './distribution-plan.ts';
import { DISTRIBUTION_PHASES, type DistributionPhase } from './distribution-steps.ts';

/** The plan as one SQL script, stage by stage, for a person to review and run on the coordinator. */
export function distributionSql(plan: DistributionPlan): string {
  const lines = [
    '-- Distribution of the schema by brand_id over Citus, generated from the resource registry',
    '-- (src/db/schema/distribution-plan.ts; docs/CAPACITY.md says what it takes and why).',
    '-- Before: Citus on every node, the workers added, and `create extension` of citus, pg_trgm',
    '-- and btree_gin on the coordinator (Citus propagates them to the workers).',
    '-- knex_migrations and knex_migrations_lock stay plain tables on the coordinator.',
    `-- ${plan.tables.filter((t) => t.role === 'distributed').length} distributed tables (colocated with ${plan.colocateWith ?? 'none'}), ${plan.tables.filter((t) => t.role === 'reference').length} reference tables.`,
  ];
  let phase: DistributionPhase | null = null;
  for (const step of plan.steps) {
    if (step.phase !== phase) {
      phase = step.phase;
      lines.push('', `-- ${DISTRIBUTION_PHASES[phase].order}. ${DISTRIBUTION_PHASES[phase].title}`);
    }
    lines.push(`${step.sql};`);
  }
  return `${lines.join('\n')}\n`;
}
