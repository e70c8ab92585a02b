import { expect } from 'chai';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';
import { rawRequest } from '../../support/raw-request.ts';

/** ETag on every 200, 304 for If-None-Match, private caching, and 304s that cost no rate limit. */
describe('conditional requests and caching', () => {
  let key: string;
  let box: Record<string, any>;
  const listPath = '/brands/acme/carton-sizes';

  const server = useServer({ rateLimitPoints: 5, rateLimitWindowSeconds: 60 });
  beforeEach(async () => {
    const fresh = await resetToBrand();
    key = fresh.key;
    box = (await insert('carton-sizes', fresh.brand.id, [{ name: 'Small', lengthCm: '10.00' }]))[0]!;
  });

  for (const [what, path] of [['a list page', () => listPath], ['one record', () => `${listPath}/${box.id as string}`]] as const) {
    it(`gives ${what} a strong ETag of its body, and 304 with no body for If-None-Match`, async () => {
      const first = await server.request(path(), { key });
      expect(first.status).to.equal(200);
      const etag = first.headers.get('etag');
      expect(etag).to.match(/^"[A-Za-z0-9_-]{32}"$/);
      expect(first.headers.get('cache-control')).to.equal('private, no-cache');
      expect(first.headers.get('vary')).to.equal('Authorization, Accept-Encoding');

      const again = await server.request(path(), { key });
      expect(again.headers.get('etag'), 'same body, same tag').to.equal(etag);

      for (const header of [etag!, `W/${etag!}`, `"other", ${etag!}`, '*']) {
        const conditional = await rawRequest(server.origin, `/api/public/v1${path()}`, { headers: { Authorization: `Bearer ${key}`, 'If-None-Match': header } });
        expect(conditional.status, header).to.equal(304);
        expect(conditional.text, header).to.equal("");
        expect(conditional.headers.etag).to.equal(etag);
        expect(conditional.headers['cache-control']).to.equal('private, no-cache');
        expect(conditional.headers.vary).to.equal('Authorization, Accept-Encoding');
      }
      const stale = await server.request(path(), { key, headers: { 'If-None-Match': '"something-else"' } });
      expect(stale.status).to.equal(200);
      expect(stale.body).to.deep.equal(first.body);
    });
  }

  it('changes the ETag when the data changes', async () => {
    const before = await server.request(listPath, { key });
    await (await testDatabase()).db('carton_sizes').where({ id: box.id }).update({ name: 'Smaller' });
    const after = await server.request(listPath, { key, headers: { 'If-None-Match': before.headers.get('etag')! } });
    expect(after.status).to.equal(200);
    expect(after.body.items[0].name).to.equal('Smaller');
    expect(after.headers.get('etag')).to.be.a('string').and.not.equal(before.headers.get('etag'));
  });

  it('sends the body byte for byte as before: compact JSON, application/json', async () => {
    const response = await server.request(`${listPath}/${box.id as string}`, { key });
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(response.text).to.equal(JSON.stringify(response.body));
    expect(Number(response.headers.get('content-length'))).to.equal(Buffer.byteLength(response.text));
  });

  it('does not count a 304 against the rate limit', async () => {
    const first = await server.request(listPath, { key });
    expect(first.headers.get('ratelimit-remaining')).to.equal('4');
    const etag = first.headers.get('etag')!;
    // Ten conditional reads with a budget of five: every one is a 304, and the budget is untouched.
    for (let i = 0; i < 10; i += 1) {
      const conditional = await rawRequest(server.origin, `/api/public/v1${listPath}`, { headers: { Authorization: `Bearer ${key}`, 'If-None-Match': etag } });
      expect(conditional.status, `conditional ${i}`).to.equal(304);
      expect(conditional.headers['ratelimit-remaining'], `conditional ${i}`).to.equal('4');
    }
    for (let remaining = 3; remaining >= 0; remaining -= 1) {
      const plain = await server.request(listPath, { key });
      expect(plain.status).to.equal(200);
      expect(plain.headers.get('ratelimit-remaining')).to.equal(String(remaining));
    }
    expect((await server.request(listPath, { key })).status).to.equal(429);
  });

  it('answers HEAD with the ETag and no body', async () => {
    const get = await server.request(listPath, { key });
    const head = await rawRequest(server.origin, `/api/public/v1${listPath}`, { method: 'HEAD', headers: { Authorization: `Bearer ${key}` } });
    expect(head.status).to.equal(200);
    expect(head.text).to.equal("");
    expect(head.headers.etag).to.equal(get.headers.get('etag'));
  });
});
