import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { compareAnswers } from '../../../bench/measure/compare-answers.ts';

/** A server answering each path from `answers` (status and body text), and recording the Authorization header it got. */
async function answering(answers: Record<string, [number, string]>, seen: (string | undefined)[]): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    const [status, body] = answers[req.url!] ?? [404, 'no'];
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('compareAnswers', () => {
  const started: Server[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  const sides = async (serverAnswers: Record<string, [number, string]>, floorAnswers: Record<string, [number, string]>) => {
    const keys: { server: (string | undefined)[]; floor: (string | undefined)[] } = { server: [], floor: [] };
    const server = await answering(serverAnswers, keys.server);
    const floor = await answering(floorAnswers, keys.floor);
    started.push(server.server, floor.server);
    return { services: { server, floor, key: 'k' }, keys };
  };
  const benchCase = { serverPaths: ['/api/x', '/api/y'], floorPaths: ['/floor/x'] };

  it('asks each side the case\'s first path, the server with the key, and finds no difference when they agree', async () => {
    const { services, keys } = await sides({ '/api/x': [200, '{"id":"a"}'] }, { '/floor/x': [200, '{"id":"a"}'] });
    expect(await compareAnswers({ services, benchCase })).to.deep.equal([]);
    expect(keys).to.deep.equal({ server: ['Bearer k'], floor: [undefined] });
  });

  it('names what differs in the bodies', async () => {
    const { services } = await sides({ '/api/x': [200, '{"id":"a"}'] }, { '/floor/x': [200, '{"id":"b"}'] });
    expect(await compareAnswers({ services, benchCase })).to.deep.equal(['the records differ']);
  });

  it('reports the statuses and the failing side\'s body when one side does not answer 200', async () => {
    const { services } = await sides({ '/api/x': [401, '{"error":"no key"}'] }, { '/floor/x': [200, '{}'] });
    expect(await compareAnswers({ services, benchCase })).to.deep.equal(['status 401 from the server, 200 from the floor: {"error":"no key"}']);
    const text = await sides({ '/api/x': [200, '{}'] }, { '/floor/x': [500, 'boom'] });
    expect(await compareAnswers({ services: text.services, benchCase })).to.deep.equal(['status 200 from the server, 500 from the floor: "boom"']);
  });
});
