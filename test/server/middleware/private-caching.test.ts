import { expect } from 'chai';
import { resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';

/** What a key reads is kept by no shared cache: `no-store` and `Vary: Authorization` on every answer of a keyed route. */
describe('private caching of keyed routes', () => {
  let key: string;
  const listPath = '/brands/acme/carton-sizes';

  const server = useServer();
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('marks errors of keyed routes no-store, varying by Authorization', async () => {
    for (const response of [
      await server.request(listPath, { key: null }),
      await server.request(`${listPath}?limit=0`, { key }),
      await server.request(`${listPath}/00000000-0000-4000-8000-000000000000`, { key }),
    ]) {
      expect(response.status).to.be.at.least(400);
      expect(response.headers.get('cache-control'), String(response.status)).to.equal('no-store');
      expect(response.headers.get('vary'), String(response.status)).to.equal('Authorization, Accept-Encoding');
      expect(response.headers.get('etag'), String(response.status)).to.equal(null);
    }
  });

  it('varies a 200 by Authorization too (the conditional GET then relaxes no-store to private, no-cache)', async () => {
    const response = await server.request(listPath, { key });
    expect(response.status, response.text).to.equal(200);
    expect(response.headers.get('vary')).to.equal('Authorization, Accept-Encoding');
    expect(response.headers.get('cache-control')).to.equal('private, no-cache');
  });

  it('leaves routes that need no key alone: the OpenAPI document does not vary by Authorization (only by Accept-Encoding)', async () => {
    const response = await server.request('/openapi.json', { key: null });
    expect(response.status).to.equal(200);
    expect(response.headers.get('vary')).to.equal('Accept-Encoding');
  });
});
