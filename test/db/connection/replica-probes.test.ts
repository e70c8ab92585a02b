import { expect } from 'chai';
import type { Knex } from 'knex';
import { createReplicaProbes } from '../../../src/db/connection/replica-probes.ts';
import { createReplicaTurn, type ReplicaState } from '../../../src/db/connection/replica-turn.ts';
import { sleep, waitFor } from '../../support/wait-for.ts';

/** A replica whose probe (`select 1`) is refused while `refusing` is set; `probes` counts them. */
function replica(): { state: ReplicaState; refusing: boolean; probes: number } {
  const fake = { refusing: true, probes: 0, state: null as unknown as ReplicaState };
  const db = {
    raw: () => {
      fake.probes += 1;
      return fake.refusing ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) : Promise.resolve({ rows: [] });
    },
  } as unknown as Knex;
  fake.state = createReplicaTurn({ primary: { name: 'primary', db }, replicas: [{ name: 'replica-1', db }] }).states[0]!;
  return fake;
}

/** A log that keeps what it is told. */
function keptLog(): { warn: (fields: object, message: string) => void; info: (fields: object, message: string) => void; lines: [string, object][] } {
  const lines: [string, object][] = [];
  return { lines, warn: (fields) => lines.push(['warn', fields]), info: (fields) => lines.push(['info', fields]) };
}

describe('createReplicaProbes', () => {
  it('takes a replica out of the turn once, forgetting its WAL position, and says so', () => {
    const log = keptLog();
    const probes = createReplicaProbes({ log, retryMs: 60_000 });
    const { state } = replica();
    state.replayed = 0x9000n;
    probes.takeOut(state, new Error('connect ECONNREFUSED'));
    probes.takeOut(state, new Error('connect ECONNREFUSED'));
    expect([state.available, state.replayed]).to.deep.equal([false, null]);
    expect(log.lines).to.deep.equal([['warn', { replica: 'replica-1', err: 'connect ECONNREFUSED', retryMs: 60_000 }]]);
    probes.close([state]);
  });

  it('brings a replica back once its background probe answers, and not before', async () => {
    const log = keptLog();
    const probes = createReplicaProbes({ log, retryMs: 20 });
    const fake = replica();
    probes.takeOut(fake.state, new Error('refused'));
    await waitFor(async () => fake.probes >= 3, { timeoutMs: 5_000, intervalMs: 5, what: 'several probes, all refused' });
    expect(fake.state.available).to.equal(false);
    fake.refusing = false;
    const deadline = Date.now() + 2000;
    while (!fake.state.available && Date.now() < deadline) await sleep(10);
    expect(fake.state.available).to.equal(true);
    expect(log.lines.filter(([level]) => level === 'info')).to.deep.equal([['info', { replica: 'replica-1' }]]);
    probes.close([fake.state]);
  });

  it('stops probing when closed', async () => {
    const probes = createReplicaProbes({ log: keptLog(), retryMs: 20 });
    const fake = replica();
    probes.takeOut(fake.state, new Error('refused'));
    probes.close([fake.state]);
    expect(fake.state.probe).to.equal(null);
    fake.refusing = false;
    await sleep(60);
    expect(fake.state.available).to.equal(false);
  });
});
