import { expect } from 'chai';
import { planDistribution } from '../../../src/db/schema/distribution-plan.ts';
import { distributionSql } from '../../../src/db/schema/distribution-sql.ts';
import { DISTRIBUTION_PHASES } from '../../../src/db/schema/distribution-steps.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { planSchema } from '../../../src/engine/compile/plan-schema.ts';

describe('distributionSql', () => {
  it('prints the steps in order as one SQL script, each stage under its title', async () => {
    const plan = planDistribution(planSchema(await loadRegistry()));
    const sql = distributionSql(plan);
    const lines = sql.split('\n').filter((line) => line !== '' && !line.startsWith('--'));
    expect(lines).to.deep.equal(plan.steps.map((s) => `${s.sql};`));
    expect(sql).to.include(`-- 4. ${DISTRIBUTION_PHASES['distributed-tables'].title}`);
    const titles = sql.split('\n').filter((line) => /^-- \d\. /.test(line));
    expect(titles, 'each stage once, in order').to.deep.equal(Object.values(DISTRIBUTION_PHASES).map(({ order, title }) => `-- ${order}. ${title}`));
  });

  it('counts the tables of each role and names the colocation group', () => {
    const sql = distributionSql({
      tables: [
        { table: 'brands', scope: 'tenant', role: 'reference', statements: [] },
        { table: 'a', scope: 'brand', role: 'distributed', statements: [] },
        { table: 'b', scope: 'brand', role: 'distributed', statements: [] },
      ],
      colocateWith: 'a',
      foreignKeys: [],
      steps: [],
      problems: [],
    });
    expect(sql).to.include('-- 2 distributed tables (colocated with a), 1 reference tables.\n');
  });
});
