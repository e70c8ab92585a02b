import { expect } from 'chai';
import type { Knex } from 'knex';
import { createReadReplicas } from '../../../src/db/connection/read-replicas.ts';
import type { ReadTarget } from '../../../src/db/connection/replica-turn.ts';

/**
 * The replica turn without databases: each target is a stand-in whose
 * `raw` answers the background probe, and the read under test says which
 * target it ran on. The real thing (a primary, a streaming replica, a
 * replica stopped mid-traffic) is test/cluster/multi-node.test.ts.
 */

interface FakeTarget extends ReadTarget {
  /** What the probe (`select 1`) and the WAL position query do now. */
  probeFails: boolean;
  /** The WAL position it answers. */
  lsn: string;
  /** WAL position queries it was sent. */
  asked: number;
}

function target(name: string): FakeTarget {
  const fake: FakeTarget = {
    name,
    probeFails: false,
    lsn: '0/1000000',
    asked: 0,
    db: {
      raw: (sql: string) => {
        if (fake.probeFails) return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
        if (!sql.includes('pg_last_wal_replay_lsn')) return Promise.resolve({ rows: [] });
        fake.asked += 1;
        return Promise.resolve({ rows: [{ lsn: fake.lsn }] });
      },
    } as unknown as Knex,
  };
  return fake;
}

const nameOf = (targets: readonly FakeTarget[], db: Knex): string => targets.find((t) => t.db === db)!.name;
const quiet = { warn: () => {}, info: () => {} };
const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });

describe('read replicas', () => {
  const primary = target('primary');
  const one = target('replica-1');
  const two = target('replica-2');
  const all = [primary, one, two];

  beforeEach(() => {
    for (const t of all) Object.assign(t, { probeFails: false, lsn: '0/1000000', asked: 0 });
  });

  it('sends each request to the next replica in turn, never to the primary while one is up', async () => {
    const reads = createReadReplicas({ primary, replicas: [one, two], log: quiet });
    const served: string[] = [];
    for (let i = 0; i < 4; i++) served.push(await reads.run(async (db) => nameOf(all, db)));
    expect(served).to.deep.equal(['replica-1', 'replica-2', 'replica-1', 'replica-2']);
    reads.close();
  });

  it('uses the primary when there are no replicas, and tells listeners where each read ran', async () => {
    const reads = createReadReplicas({ primary, replicas: [], log: quiet });
    const heard: string[] = [];
    reads.onRead((name) => heard.push(name));
    expect(await reads.run(async (db) => nameOf(all, db))).to.equal('primary');
    expect(heard).to.deep.equal(['primary']);
    expect(reads.state()).to.deep.equal([{ name: 'primary', available: true }]);
  });

  it('runs a read again on the next replica when its connection fails, and takes the failed one out of the turn', async () => {
    const warnings: object[] = [];
    const reads = createReadReplicas({ primary, replicas: [one, two], log: { ...quiet, warn: (fields) => warnings.push(fields) }, retryMs: 60_000 });
    const attempts: string[] = [];
    const answer = await reads.run(async (db) => {
      attempts.push(nameOf(all, db));
      if (db === one.db) throw refused();
      return nameOf(all, db);
    });
    expect(answer).to.equal('replica-2');
    expect(attempts).to.deep.equal(['replica-1', 'replica-2']);
    expect(reads.state()).to.deep.equal([
      { name: 'primary', available: true },
      { name: 'replica-1', available: false },
      { name: 'replica-2', available: true },
    ]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.include({ replica: 'replica-1' });
    // Out of the turn: the following reads skip it.
    const next = [await reads.run(async (db) => nameOf(all, db)), await reads.run(async (db) => nameOf(all, db))];
    expect(next).to.deep.equal(['replica-2', 'replica-2']);
    reads.close();
  });

  it('falls back to the primary when every replica fails', async () => {
    const reads = createReadReplicas({ primary, replicas: [one, two], log: quiet, retryMs: 60_000 });
    const attempts: string[] = [];
    const answer = await reads.run(async (db) => {
      attempts.push(nameOf(all, db));
      if (db !== primary.db) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      return 'from the primary';
    });
    expect(answer).to.equal('from the primary');
    expect(attempts).to.deep.equal(['replica-1', 'replica-2', 'primary']);
    expect(await reads.run(async (db) => nameOf(all, db))).to.equal('primary');
    reads.close();
  });

  it('does not run again a read that failed for another reason than its connection', async () => {
    const reads = createReadReplicas({ primary, replicas: [one, two], log: quiet });
    let attempts = 0;
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const failed = await reads.run(async () => {
      attempts++;
      throw timeout;
    }).catch((error: unknown) => error);
    expect(failed).to.equal(timeout);
    expect(attempts).to.equal(1);
    expect(reads.state().every((t) => t.available)).to.equal(true);
    reads.close();
  });

  it('throws what the primary throws: there is nowhere else to go', async () => {
    const reads = createReadReplicas({ primary, replicas: [], log: quiet });
    const error = refused();
    expect(await reads.run(async () => Promise.reject(error)).catch((e: unknown) => e)).to.equal(error);
  });

  it('runs a read again elsewhere after a recovery conflict, and keeps that replica in the turn', async () => {
    const reads = createReadReplicas({ primary, replicas: [one, two], log: quiet });
    const conflict = Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });
    const answer = await reads.run(async (db) => {
      if (db === one.db) throw conflict;
      return nameOf(all, db);
    });
    expect(answer).to.equal('replica-2');
    expect(reads.state().find((t) => t.name === 'replica-1')!.available).to.equal(true);
    reads.close();
  });
});

describe('read replicas: cursor walks keep in step', () => {
  const primary = target('primary');
  const one = target('replica-1');
  const two = target('replica-2');
  const all = [primary, one, two];
  const where = async (reads: ReturnType<typeof createReadReplicas>, after: string | null): Promise<string> =>
    reads.run(async (db) => nameOf(all, db), { after });

  beforeEach(() => {
    for (const t of all) Object.assign(t, { probeFails: false, lsn: '0/1000000', asked: 0 });
  });

  it('has no mark with one copy, and asks nothing', async () => {
    const reads = createReadReplicas({ primary, replicas: [], log: quiet });
    expect(await reads.mark(primary.db)).to.equal(null);
    expect(primary.asked).to.equal(0);
  });

  it("marks a page with its copy's WAL position, and remembers that copy has it", async () => {
    const reads = createReadReplicas({ primary, replicas: [one, two], log: quiet });
    one.lsn = '16/B374D848';
    expect(await reads.mark(one.db)).to.equal('16/B374D848');
    primary.lsn = '17/0';
    expect(await reads.mark(primary.db)).to.equal('17/0');
    // replica-1 is known to have 16/B374D848: a later page of that walk goes there without asking again.
    expect(await where(reads, '16/B374D848')).to.equal('replica-1');
    expect(one.asked).to.equal(1);
    reads.close();
  });

  it('sends a later page past a replica that has not replayed its mark, asking it once, and to the primary when none has', async () => {
    const reads = createReadReplicas({ primary, replicas: [one, two], log: quiet });
    one.lsn = '0/5000';
    two.lsn = '0/9000';
    // The turn starts at replica-1, which is behind the mark 0/8000: replica-2 serves.
    expect(await where(reads, '0/8000')).to.equal('replica-2');
    expect([one.asked, two.asked]).to.deep.equal([1, 1]);
    // Nobody has 0/A000 yet: the primary serves, after one question to each replica.
    expect(await where(reads, '0/A000')).to.equal('primary');
    expect([one.asked, two.asked]).to.deep.equal([2, 2]);
    // replica-1 catches up: asked again, it serves.
    one.lsn = '0/B000';
    expect(await where(reads, '0/A000')).to.equal('replica-1');
    reads.close();
  });

  it('treats a page without a mark as free to go anywhere in the turn', async () => {
    const reads = createReadReplicas({ primary, replicas: [one, two], log: quiet });
    one.lsn = '0/1';
    expect(await where(reads, null)).to.equal('replica-1');
    expect(one.asked).to.equal(0);
    reads.close();
  });

  it('takes a replica that fails the WAL question out of the turn', async () => {
    const reads = createReadReplicas({ primary, replicas: [one], log: quiet, retryMs: 60_000 });
    one.probeFails = true;
    expect(await where(reads, '0/8000')).to.equal('primary');
    expect(reads.state()[1]).to.deep.equal({ name: 'replica-1', available: false });
    reads.close();
  });
});
