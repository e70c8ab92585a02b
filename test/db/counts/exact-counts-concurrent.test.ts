import { expect } from 'chai';
import { createExactCounts, type CountAnswerSource, type CountSource } from '../../../src/db/counts/exact-counts.ts';
import { MAX_RUNNING_COUNTS } from '../../../src/db/counts/count-flights.ts';
import { seededRandom } from '../../../tools/shared/seeded-random.ts';
import { tick } from '../../support/wait-for.ts';

/**
 * A brand's rows in a database whose statements the test runs by hand: a
 * statement is sent (`count()` or `changedSince()` is called), starts (takes
 * its snapshot: `start`), and ends (`finish`), each when the test says, as a
 * pool and a busy Postgres would interleave them. Every commit takes the next
 * transaction id; a snapshot sees every commit before it.
 */
interface Statement {
  readonly kind: 'count' | 'probe';
  /** Null until the statement starts; then what it will answer. */
  answer: unknown;
  readonly take: () => unknown;
  readonly resolve: (value: unknown) => void;
}

interface HandRunDatabase {
  readonly total: number;
  countsSent: number;
  probesSent: number;
  /** Counts sent and not yet ended: what the database is asked to count at once. */
  countsRunning: number;
  peakCountsRunning: number;
  readonly statements: Statement[];
  commit(rows: number): void;
  send(kind: Statement['kind'], take: () => unknown): Promise<never>;
  start(statement: Statement): void;
  finish(statement: Statement): void;
  /** Starts and ends every statement of a kind sent so far, in the order sent. */
  run(kind: Statement['kind']): Promise<void>;
  readonly source: CountSource;
}

function handRunDatabase(total: number): HandRunDatabase {
  let nextXid = 100;
  const written: number[] = [];
  const statements: Statement[] = [];
  const snapshot = (): string => `${nextXid}:${nextXid}:`;
  const db: HandRunDatabase = {
    get total() {
      return total;
    },
    countsSent: 0,
    probesSent: 0,
    countsRunning: 0,
    peakCountsRunning: 0,
    statements,
    commit(rows: number) {
      total += rows;
      written.push(nextXid++);
    },
    send(kind: Statement['kind'], take: () => unknown): Promise<never> {
      return new Promise((resolve) => statements.push({ kind, answer: null, take, resolve: resolve as (value: unknown) => void }));
    },
    start(statement: Statement) {
      statement.answer = statement.take();
    },
    finish(statement: Statement) {
      if (statement.answer === null) db.start(statement);
      statements.splice(statements.indexOf(statement), 1);
      if (statement.kind === 'count') db.countsRunning -= 1;
      statement.resolve(statement.answer);
    },
    async run(kind: Statement['kind']) {
      for (const statement of statements.filter((s) => s.kind === kind)) db.finish(statement);
      await tick();
    },
    source: {
      count() {
        db.countsSent += 1;
        db.countsRunning += 1;
        db.peakCountsRunning = Math.max(db.peakCountsRunning, db.countsRunning);
        return db.send('count', () => ({ total, snapshot: snapshot() }));
      },
      changedSince(seen: string) {
        db.probesSent += 1;
        return db.send('probe', () => ({ changed: written.some((xid) => xid >= Number(seen.split(':')[0])), snapshot: snapshot() }));
      },
    },
  };
  return db;
}

/** A count of `k` remembered, then a commit to the brand: the next request finds it stale. */
async function staleAfterOneCount(db: HandRunDatabase, sources: CountAnswerSource[] = []) {
  const counts = createExactCounts({ onAnswer: (from) => sources.push(from) });
  const first = counts.count('k', db.source);
  await tick();
  await db.run('count');
  expect(await first).to.equal(db.total);
  db.commit(1);
  return counts;
}

describe('exact counts under concurrent requests', () => {
  it('a request arriving during a count, with nothing written since that count began, waits for it rather than count again', async () => {
    const db = handRunDatabase(100);
    const sources: CountAnswerSource[] = [];
    const counts = await staleAfterOneCount(db, sources);
    const first = counts.count('k', db.source);
    await tick();
    await db.run('probe');
    expect(db.countsSent, 'the remembered count was stale: counted again').to.equal(2);
    db.start(db.statements[0]!);
    const second = counts.count('k', db.source);
    await tick();
    await db.run('probe');
    expect(db.countsSent, 'the second request shares the running count').to.equal(2);
    await db.run('count');
    expect([await first, await second]).to.deep.equal([101, 101]);
    expect(sources, 'where each count came from').to.deep.equal(['counted', 'counted', 'running']);
  });

  it('a request arriving during a count after a write to the brand counts at once, beside it', async () => {
    const db = handRunDatabase(100);
    const counts = await staleAfterOneCount(db);
    const first = counts.count('k', db.source);
    await tick();
    await db.run('probe');
    db.start(db.statements[0]!);
    db.commit(5);
    const second = counts.count('k', db.source);
    await tick();
    await db.run('probe');
    expect(db.countsRunning, 'two counts run at once: the second did not wait for the first to end').to.equal(2);
    await db.run('count');
    expect([await first, await second], 'each exact as of its request').to.deep.equal([101, 106]);
  });

  it(`runs at most ${MAX_RUNNING_COUNTS} counts of a key; requests finding them stale share the next, which probes nothing more`, async () => {
    const db = handRunDatabase(100);
    const counts = await staleAfterOneCount(db);
    const running: Promise<number>[] = [];
    for (const rows of [1, 1]) {
      running.push(counts.count('k', db.source));
      await tick();
      await db.run('probe');
      db.start(db.statements.at(-1)!);
      db.commit(rows);
    }
    expect(db.countsRunning).to.equal(2);
    const probesBefore = db.probesSent;
    const waiting = [counts.count('k', db.source), counts.count('k', db.source), counts.count('k', db.source)];
    await tick();
    await db.run('probe');
    await tick();
    expect(db.probesSent - probesBefore, 'one probe for the three: the others joined the waiting count').to.equal(1);
    expect(db.countsRunning, 'nothing more runs while two do').to.equal(2);
    db.finish(db.statements.find((s) => s.kind === 'count')!);
    await tick();
    expect(db.countsRunning, 'the waiting count started when a slot freed').to.equal(2);
    expect(db.countsSent).to.equal(4);
    await db.run('count');
    expect(await Promise.all(running)).to.deep.equal([101, 102]);
    expect(await Promise.all(waiting)).to.deep.equal([103, 103, 103]);
  });

  it('with nothing remembered, identical requests arriving together share the second count', async () => {
    const db = handRunDatabase(7);
    const counts = createExactCounts();
    const answers = Promise.all(Array.from({ length: 5 }, () => counts.count('k', db.source)));
    await tick();
    await tick();
    expect([db.countsSent, db.probesSent], 'the first count has no known starting point to join; the other four share one').to.deep.equal([2, 0]);
    await db.run('count');
    expect(await answers).to.deep.equal([7, 7, 7, 7, 7]);
  });

  it('model: random arrivals, commits and statement timings; every answer is the total at a moment between its request and its answer', async function () {
    this.timeout(60_000);
    const SEEDS = 30;
    const STEPS = 300;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const random = seededRandom(seed);
      const db = handRunDatabase(1_000);
      const counts = createExactCounts();
      const history: number[] = [db.total];
      const asked: { arrived: number; answered: number | null; answer: number | null }[] = [];
      let step = 0;
      const ask = (): void => {
        const request = { arrived: step, answered: null as number | null, answer: null as number | null };
        asked.push(request);
        void counts.count('k', db.source).then((answer) => {
          request.answer = answer;
          request.answered = step;
        });
      };
      const act = async (): Promise<void> => {
        step += 1;
        const roll = random();
        const pick = <T>(list: T[]): T | undefined => list[Math.floor(random() * list.length)];
        if (roll < 0.3) ask();
        else if (roll < 0.45) db.commit(Math.floor(random() * 7) - 3);
        else if (roll < 0.7) {
          const statement = pick(db.statements.filter((s) => s.answer === null));
          if (statement) db.start(statement);
        } else {
          const statement = pick(db.statements);
          if (statement) db.finish(statement);
        }
        history[step] = db.total;
        await tick();
      };
      for (let i = 0; i < STEPS; i++) await act();
      // Drain: every statement ends, so every request is answered.
      for (let i = 0; i < 1_000 && asked.some((r) => r.answered === null); i++) {
        step += 1;
        history[step] = db.total;
        if (db.statements.length > 0) db.finish(db.statements[0]!);
        await tick();
      }
      for (const [i, request] of asked.entries()) {
        const label = `seed ${seed}, request ${i} (arrived at step ${request.arrived})`;
        expect(request.answered, `${label}: answered`).to.not.equal(null);
        expect(history.slice(request.arrived, request.answered! + 1), `${label}: answered ${request.answer} at step ${request.answered}`).to.include(request.answer);
      }
      expect(db.peakCountsRunning, `seed ${seed}: counts of the key at once`).to.be.at.most(MAX_RUNNING_COUNTS);
      expect(db.countsSent, `seed ${seed}: fewer counts than requests`).to.be.below(asked.length);
    }
  });
});
