import { expect } from 'chai';
import type { ChangesProbe } from '../../../src/engine/compile/changes-probe.ts';
import { probeChanges } from '../../../src/db/live/probe-changes.ts';
import { testDatabase } from '../../support/test-database.ts';

/**
 * What probeChanges makes of a probe's rows, with probes of fixed rows (what
 * the real probe asks: test/engine/compile/changes-probe.test.ts).
 */
type Asked = Parameters<ChangesProbe['probe']>[0];
const fixed = (rows: readonly (readonly [string, string | null, string, string, string?])[]): ChangesProbe & { asked: Asked[] } => {
  const asked: Asked[] = [];
  const values = rows.map(() => '(?::text, ?::text, ?::text, ?::text, ?::text)').join(', ');
  return {
    asked,
    probe: (args) => {
      asked.push(args);
      return rows.length === 0
        ? { sql: 'select null::text as "brandId", null::text as "version", null::text as "truncations", null::text as "snapshot", null::text as "stamped" where false', bindings: [] }
        : { sql: `select * from (values ${values}) as t("brandId", "version", "truncations", "snapshot", "stamped")`, bindings: rows.flatMap((row) => [row[0], row[1], row[2], row[3], row[4] ?? '']) };
    },
  };
};

describe('probeChanges', () => {
  it('reads each brand\'s newest version and truncations as bigints, and the probe\'s snapshot, once, with the brands and since asked', async () => {
    const { db } = await testDatabase();
    const probe = fixed([['b1', '42', '40,41', '10:50:12,13', '12'], ['b2', null, '', '10:50:12,13']]);
    const before = Date.now();
    const running = new Map([['b1', [12n, 13n]]]);
    const result = await probeChanges({ db, probe, brandIds: ['b1', 'b2'], since: 7n, running, withMark: false });
    expect(probe.asked).to.deep.equal([{ brandIds: ['b1', 'b2'], since: 7n, running }]);
    expect(result.versions).to.deep.equal(new Map([['b1', 42n], ['b2', null]]));
    expect(result.truncations).to.deep.equal(new Map([['b1', [40n, 41n]], ['b2', []]]));
    expect(result.stamped).to.deep.equal(new Map([['b1', new Set([12n])], ['b2', new Set()]]));
    expect(result.snapshot).to.deep.equal({ xmin: 10n, xmax: 50n, xip: [12n, 13n] });
    expect(result.mark).to.equal(null);
    expect(result.at).to.be.within(before, Date.now());
  });

  it('takes a snapshot with more transactions in progress than a token may carry (the probe\'s is never sent)', async () => {
    const { db } = await testDatabase();
    const inProgress = Array.from({ length: 40 }, (_, i) => String(100 + i)).join(',');
    const result = await probeChanges({ db, probe: fixed([['b1', '5', '', `100:200:${inProgress}`]]), brandIds: ['b1'], since: 0n, withMark: false });
    expect(result.snapshot.xip).to.have.length(40);
  });

  it('gives the WAL position after the probe when asked for a mark (reads on replicas)', async () => {
    const { db } = await testDatabase();
    const result = await probeChanges({ db, probe: fixed([['b1', '5', '', '10:11:']]), brandIds: ['b1'], since: 0n, withMark: true });
    expect(result.mark).to.match(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
  });

  it('fails, naming what it got, when the probe answers no snapshot it can read', async () => {
    const { db } = await testDatabase();
    for (const [probe, said] of [[fixed([['b1', '5', '', 'not a snapshot']]), 'not a snapshot'], [fixed([]), 'undefined']] as const) {
      const failed = await probeChanges({ db, probe, brandIds: ['b1'], since: 0n, withMark: false }).then(() => null, (error: Error) => error);
      expect(failed?.message).to.equal(`a changes probe answered no snapshot it could read (${said})`);
    }
  });
});
