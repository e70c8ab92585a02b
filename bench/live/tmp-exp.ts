import { readFileSync } from 'node:fs';
import { startSoakServer } from '../../tools/soak/soak-server.ts';
import { dropDatabase } from '../data/bench-database.ts';
import { startLiveClients } from './live-clients.ts';
import { benchCursorSecret, LIVE_DATABASE, prepareLiveDatabase } from './live-setup.ts';
const adminUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function cpu(pid: number) { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return { u: Number(f[11]) / 100, s: Number(f[12]) / 100 }; }
const WAITS = (process.env.WAITS ?? '20').split(',').filter(Boolean).map(Number);
const SECS = Number(process.env.SECS ?? 30);
const database = await prepareLiveDatabase({ adminUrl, brands: 100 });
const server = await startSoakServer({ env: { DATABASE_URL: database.url, CURSOR_SECRET: benchCursorSecret(), RATE_LIMIT_POINTS: '100000000', RATE_LIMIT_WINDOW_SECONDS: '60', KEY_CACHE_SECONDS: '10' } });
async function measure(name: string, secs: number, calls?: () => number) {
  if (process.env.PROFILE) process.kill(server.pid, 'SIGUSR2');
  const a = cpu(server.pid); const c0 = calls?.() ?? 0; const t0 = performance.now();
  await sleep(secs * 1000);
  if (process.env.PROFILE) process.kill(server.pid, 'SIGUSR2');
  const b = cpu(server.pid); const el = (performance.now() - t0) / 1000; const c1 = calls?.() ?? 0;
  const n = (c1 - c0) / el;
  console.log(`${name}: user ${((b.u - a.u) / el * 100).toFixed(2)}% sys ${((b.s - a.s) / el * 100).toFixed(2)}% calls/s ${n.toFixed(1)} ms/call ${n ? (((b.u - a.u + b.s - a.s) / el) * 1000 / n).toFixed(3) : '-'}`);
}
try {
  for (const wait of WAITS) {
    const clients = startLiveClients({ origin: server.origin, brands: database.brands, perBrand: 10, wait, onItem: () => {} });
    await sleep(20000);
    await measure(`1000 waiting wait=${wait}`, SECS, clients.calls);
    await clients.stop();
  }
} finally { await server.stop(); await database.close(); await dropDatabase({ adminUrl, name: LIVE_DATABASE }); }
