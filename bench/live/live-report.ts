import { round, type PhaseResult } from './live-phase.ts';

/** CPU ms of one call: the phase's CPU over the idle instance's (the phase without clients), by its answers a second. */
export function perCall(phase: PhaseResult | undefined, idle: PhaseResult | undefined): number | null {
  if (!phase || phase.serverCpuPercent === null || !phase.callsPerSecond) return null;
  return round(((phase.serverCpuPercent - (idle?.serverCpuPercent ?? 0)) * 10) / phase.callsPerSecond, 3);
}

/** Memory of one waiter, KB: the phase's RSS over the idle instance's, by its waiters. */
export function perWaiter(phase: PhaseResult | undefined, idle: PhaseResult | undefined): number | null {
  if (!phase || phase.serverRssMb === null || !idle?.serverRssMb || phase.waiting === 0) return null;
  return round(((phase.serverRssMb - idle.serverRssMb) * 1024) / phase.waiting, 1);
}

/** What the targets of live changes are judged on, found by what each phase is (so one phase run alone still lands in its place). */
export function liveFigures(results: readonly PhaseResult[]) {
  const loaded = results.find((r) => r.waiting > 1 && r.writing);
  const quiet = results.find((r) => r.waiting > 1 && !r.writing && !r.elsewhere);
  const elsewhere = results.find((r) => r.waiting > 1 && !r.writing && r.elsewhere);
  const one = results.find((r) => r.waiting === 1);
  const none = results.find((r) => r.waiting === 0 && r.getting === 0);
  const gets = results.find((r) => r.getting > 0);
  const waitedCall = perCall(quiet, none);
  const get = perCall(gets, none);
  return {
    loaded, quiet, none, elsewhere,
    transactionsRatio: loaded && one && one.databaseTransactionsPerSecond ? round(loaded.databaseTransactionsPerSecond! / one.databaseTransactionsPerSecond, 2) : null,
    waitedCallMs: waitedCall,
    getMs: get,
    waitedCallOverGet: waitedCall !== null && get !== null && get > 0 ? round(waitedCall / get, 2) : null,
    waiterKb: perWaiter(quiet, none),
  };
}

/** The run as the bench prints it: a row per phase, then the targets and the cost of one call and one waiter. */
export function renderLiveReport(results: readonly PhaseResult[]): string {
  const f = liveFigures(results);
  return [
    '| phase | waiting | getting | commit to answer p50 / p99 (ms) | server CPU (% of a core) | answers/s | server RSS (MB) | database transactions/s |',
    '|---|--:|--:|---|--:|--:|--:|--:|',
    ...results.map((r) => `| ${r.name} | ${r.waiting} | ${r.getting} | ${r.latencyMs.p50 ?? '-'} / ${r.latencyMs.p99 ?? '-'} | ${r.serverCpuPercent} | ${r.callsPerSecond} | ${r.serverRssMb} | ${r.databaseTransactionsPerSecond} |`),
    '',
    `targets: p50 <= 300 ms: ${f.loaded?.latencyMs.p50 ?? null}; p99 <= 1000 ms: ${f.loaded?.latencyMs.p99 ?? null}; `
      + `transactions/s with ${f.loaded?.waiting ?? '?'} waiting / with 1 waiting <= 1.5: ${f.transactionsRatio}; CPU with nobody writing <= 3 %: ${f.quiet?.serverCpuPercent ?? null}; `
      + `a waited call's CPU / a get's at the same rate <= 2: ${f.waitedCallOverGet}`,
    `a waited call's CPU (nobody writing, the idle instance's subtracted): ${f.waitedCallMs} ms; a get's, at the same rate over as many connections: ${f.getMs} ms; memory a waiter: ${f.waiterKb} KB`,
    `deliveries: ${f.loaded?.deliveries ?? null} of ${f.loaded?.expectedDeliveries ?? null} expected; none waiting: ${f.none?.databaseTransactionsPerSecond ?? null} transactions/s`,
    `with a brand nobody follows written in overlapping transactions (it wakes nobody): server CPU ${f.elsewhere?.serverCpuPercent ?? null} % `
      + `(nobody writing: ${f.quiet?.serverCpuPercent ?? null} %), database transactions/s ${f.elsewhere?.databaseTransactionsPerSecond ?? null} (the writes' own are about 11)`,
    '',
  ].join('\n');
}
