import { expect } from 'chai';
import type { Knex } from 'knex';
import { createReadReplicas, isConnectionFailure, type ReadTarget } from '../../src/db/read-replicas.ts';

/**
 * The replica turn without databases: each target is a stand-in whose
 * `raw` answers the background probe, and the read under test says which
 * target it ran on. The real thing (a primary, a streaming replica, a
 * replica stopped mid-traffic) is test/cluster/multi-node.test.ts.
 */

interface FakeTarget extends ReadTarget {
  /** What the probe (`select 1`) does now. */
  probeFails: boolean;
}

function target(name: string): FakeTarget {
  const fake: FakeTarget = {
    name,
    probeFails: false,
    db: {
      raw: () => (fake.probeFails ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) : Promise.resolve({ rows: [] })),
    } as unknown as Knex,
  };
  return fake;
}

const nameOf = (targets: readonly FakeTarget[], db: Knex): string => targets.find((t) => t.db === db)!.name;
const quiet = { warn: () => {}, info: () => {} };
const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('read replicas', () => {
  const primary = target('primary');
  const one = target('replica-1');
  const two = target('replica-2');
  const all = [primary, one, two];

  beforeEach(() => {
    for (const t of all) t.probeFails = false;
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

  it('brings a replica back once its background probe answers, and not before', async () => {
    const infos: object[] = [];
    const reads = createReadReplicas({ primary, replicas: [one], log: { ...quiet, info: (fields) => infos.push(fields) }, retryMs: 20 });
    one.probeFails = true;
    await reads.run(async (db) => {
      if (db === one.db) throw refused();
      return null;
    });
    await sleep(80); // several probes, all refused
    expect(reads.state()[1]).to.deep.equal({ name: 'replica-1', available: false });
    one.probeFails = false;
    const deadline = Date.now() + 2000;
    while (!reads.state()[1]!.available && Date.now() < deadline) await sleep(10);
    expect(reads.state()[1]).to.deep.equal({ name: 'replica-1', available: true });
    expect(infos).to.deep.equal([{ replica: 'replica-1' }]);
    expect(await reads.run(async (db) => nameOf(all, db))).to.equal('replica-1');
    reads.close();
  });

  it('stops probing when closed', async () => {
    const reads = createReadReplicas({ primary, replicas: [one], log: quiet, retryMs: 20 });
    one.probeFails = true;
    await reads.run(async (db) => {
      if (db === one.db) throw refused();
      return null;
    });
    reads.close();
    one.probeFails = false;
    await sleep(60);
    expect(reads.state()[1]!.available).to.equal(false);
  });
});

describe('isConnectionFailure', () => {
  const error = (message: string, fields: object = {}): Error => Object.assign(new Error(message), fields);

  it('is true for a refused, reset or shut-down connection and for a pool that found none in time', () => {
    expect(isConnectionFailure(error('connect ECONNREFUSED', { code: 'ECONNREFUSED' }))).to.equal(true);
    expect(isConnectionFailure(error('read ECONNRESET', { code: 'ECONNRESET' }))).to.equal(true);
    expect(isConnectionFailure(error('terminating connection due to administrator command', { code: '57P01' }))).to.equal(true);
    expect(isConnectionFailure(error('the database system is starting up', { code: '57P03' }))).to.equal(true);
    expect(isConnectionFailure(error('connection failure', { code: '08006' }))).to.equal(true);
    expect(isConnectionFailure(error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isConnectionFailure(Object.assign(error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }))).to.equal(true);
  });

  it('is false for a statement that failed on a working connection', () => {
    expect(isConnectionFailure(error('canceling statement due to statement timeout', { code: '57014' }))).to.equal(false);
    expect(isConnectionFailure(error('relation "x" does not exist', { code: '42P01' }))).to.equal(false);
    expect(isConnectionFailure('ECONNREFUSED')).to.equal(false);
  });
});
