import { expect } from 'chai';
import { createSoakSender, type SoakOutcome } from '../../../tools/soak/soak-sender.ts';
import { soakRequest, type SoakRequest } from '../../../tools/soak/soak-request.ts';
import { freePort } from '../../support/free-port.ts';
import { waitFor } from '../../support/wait-for.ts';
import { startLocalServer } from './soak-http.ts';

const target = { key: { label: 'northwind', key: 'secret', brands: ['northwind'] }, brand: 'northwind' };

describe('createSoakSender', () => {
  it('sends with the key and the request\'s headers, reports each outcome, and lets the mix learn from the answer', async () => {
    const seen: Array<{ url: string; authorization: string | undefined; ifNoneMatch: string | undefined }> = [];
    const local = await startLocalServer((req, res) => {
      seen.push({ url: req.url!, authorization: req.headers.authorization, ifNoneMatch: req.headers['if-none-match'] as string | undefined });
      if (req.url === '/ok') res.writeHead(200, { etag: '"e1"' }).end('{"items":[]}');
      else res.writeHead(304).end();
    });
    const outcomes: SoakOutcome[] = [];
    const learned: Array<[SoakRequest, { status: number; etag: string | null; body: string }]> = [];
    const sender = createSoakSender({ port: local.port, connections: 2, mix: { learn: (request, answer) => learned.push([request, answer]) }, onOutcome: (o) => outcomes.push(o) });
    try {
      const ok = soakRequest('list', target, '/ok');
      const conditional = soakRequest('conditional', target, '/same', { headers: { 'If-None-Match': '"e1"' }, expect: 304 });
      sender.send(ok);
      sender.send(conditional);
      expect(sender.inFlight()).to.equal(2);
      await waitFor(async () => outcomes.length === 2, { what: 'two outcomes', intervalMs: 10 });
      expect(sender.inFlight()).to.equal(0);
      expect(outcomes.map((o) => [o.request.path, o.status, o.error])).to.have.deep.members([['/ok', 200, null], ['/same', 304, null]]);
      expect(outcomes.every((o) => o.latencyMs >= 0)).to.equal(true);
      expect(seen).to.have.deep.members([
        { url: '/ok', authorization: 'Bearer secret', ifNoneMatch: undefined },
        { url: '/same', authorization: 'Bearer secret', ifNoneMatch: '"e1"' },
      ]);
      expect(learned).to.have.deep.members([[ok, { status: 200, etag: '"e1"', body: '{"items":[]}' }], [conditional, { status: 304, etag: null, body: '' }]]);
    } finally {
      sender.close();
      await local.close();
    }
  });

  it('reports a request that got no answer with its error, and nothing once closed', async () => {
    const port = await freePort();
    const outcomes: SoakOutcome[] = [];
    const sender = createSoakSender({ port, connections: 1, mix: { learn: () => {} }, onOutcome: (o) => outcomes.push(o) });
    sender.send(soakRequest('list', target, '/'));
    await waitFor(async () => outcomes.length === 1, { what: 'the refusal', intervalMs: 10 });
    expect(outcomes[0]).to.deep.include({ status: null });
    expect(outcomes[0]!.error).to.match(/ECONNREFUSED/);
    sender.close();
    sender.send(soakRequest('list', target, '/'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outcomes).to.have.length(1);
  });
});
