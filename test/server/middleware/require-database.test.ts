import { expect } from 'chai';
import { DATABASE_NOT_READY_MESSAGE } from '../../../src/engine/request/api-error.ts';
import { resetToBrand } from '../../support/fixtures.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';

describe('the API while its database is not ready (a start without it)', () => {
  let ready = false;
  let retryAfter = 3;
  let key: string;

  const server = useServer({ readiness: { ready: () => ready, retryAfterSeconds: () => retryAfter } });
  beforeEach(async () => {
    ({ key } = await resetToBrand());
    ready = false;
  });

  it('answers 503 with the contract\'s error body and Retry-After, before any key check and without asking the database', async () => {
    const { db } = await testDatabase();
    let queries = 0;
    const count = (): void => {
      queries += 1;
    };
    db.on('query', count);
    try {
      for (const options of [{ key }, { key: null }, { key: 'bcat_sk_nope' }]) {
        const response = await server.request('/brands/acme/carton-sizes', options);
        expect(response.status).to.equal(503);
        expectErrorBody(response.body, 'internal_error', { details: 'forbidden' });
        expect(response.body.error).to.equal(DATABASE_NOT_READY_MESSAGE);
        expect(response.headers.get('retry-after')).to.equal('3');
        expect(response.headers.get('cache-control')).to.equal('no-store');
      }
    } finally {
      db.off('query', count);
    }
    expect(queries).to.equal(0);
  });

  it('says "starting" on /readyz (503), while /healthz, the OpenAPI document and unknown paths answer as ever', async () => {
    retryAfter = 1;
    const readyz = await server.request(`${server.origin}/readyz`);
    expect(readyz.status).to.equal(503);
    expect(readyz.body).to.deep.include({ status: 'unavailable', database: 'starting' });
    expect((await server.request(`${server.origin}/healthz`)).status).to.equal(200);
    expect((await server.request('/openapi.json')).status).to.equal(200);
    const unknown = await server.request('/no-such-path', { key });
    expect(unknown.status).to.equal(404);
  });

  it('serves as soon as the database is ready', async () => {
    expect((await server.request('/brands/acme/carton-sizes', { key })).status).to.equal(503);
    ready = true;
    const response = await server.request('/brands/acme/carton-sizes', { key });
    expect(response.status, response.text).to.equal(200);
    expect((await server.request(`${server.origin}/readyz`)).body).to.deep.include({ database: 'ready' });
  });
});
