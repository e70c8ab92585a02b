/**
 * `npm run db:distribution-plan`: prints, as SQL, how the schema the registry
 * implies would be distributed by brand_id over Citus (src/db/schema/distribution-plan.ts):
 * each table's role and the DDL of the conversion, in order. It reads no
 * database and runs nothing. Exits 1, with the reasons on stderr, when
 * something in the schema stands in the way.
 */
import { planDistribution } from '../src/db/schema/distribution-plan.ts';
import { distributionSql } from '../src/db/schema/distribution-sql.ts';
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { planSchema } from '../src/engine/compile/plan-schema.ts';

if (process.argv.length > 2) {
  process.stderr.write('usage: npm run -s db:distribution-plan > distribution.sql\n');
  process.exit(2);
}

const plan = planDistribution(planSchema(await loadRegistry()));
for (const problem of plan.problems) process.stderr.write(`cannot distribute: ${problem}\n`);
process.stdout.write(distributionSql(plan));
process.exitCode = plan.problems.length > 0 ? 1 : 0;
