import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { generateKey } from '../../../src/server/auth/api-keys.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';

/** CONTRACT.md §4: key (401), brand exists (404), brand allowed (401), parameters (400), record (404). */
describe('check order: key, brand, parameters, record', () => {
  let acme: { id: string; slug: string };
  let globex: { id: string; slug: string };
  let key: string;
  let carton: Record<string, any>;

  const server = useServer();
  beforeEach(async () => {
    ({ brand: acme, key } = await resetToBrand());
    globex = await createBrand('globex');
    const inserted = await insert('carton-sizes', acme.id, [{ name: 'Small', lengthCm: '1', widthCm: '2', heightCm: '3' }]);
    carton = inserted[0]!;
  });

  it('bad key + unknown brand => 401', async () => {
    const variants: Record<string, string>[] = [{}, { Authorization: `Bearer ${generateKey()}` }, { Authorization: 'Bearer garbage' }];
    for (const headers of variants) {
      const response = await server.request('/brands/no-such-brand/carton-sizes?limit=0&bogus=1', { headers });
      expect(response.status).to.equal(401);
      expectErrorBody(response.body, 'unauthorized');
    }
  });

  it('valid key + unknown brand + bad parameters => 404', async () => {
    for (const p of ['/brands/no-such-brand/carton-sizes?limit=0&bogus=1', '/brands/no-such-brand/carton-sizes/not-a-uuid', '/brands/no-such-brand?bogus=1']) {
      const response = await server.request(p, { key });
      expect(response.status, p).to.equal(404);
      expectErrorBody(response.body, 'not_found');
    }
  });

  it('valid key + brand not allowed for it + bad parameters => 401', async () => {
    for (const p of ['/brands/globex/carton-sizes?limit=0&bogus=1', '/brands/globex/carton-sizes/not-a-uuid', `/brands/globex/carton-sizes/${randomUUID()}?bogus=1`]) {
      const response = await server.request(p, { key });
      expect(response.status, p).to.equal(401);
      expectErrorBody(response.body, 'unauthorized');
    }
  });

  it('allowed brand + bad parameters + unknown record => 400', async () => {
    const response = await server.request(`/brands/acme/carton-sizes/${randomUUID()}?bogus=1`, { key });
    expect(response.status).to.equal(400);
    expectErrorBody(response.body, 'invalid_parameter', { details: 'required' });
    const list = await server.request('/brands/acme/carton-sizes?limit=0', { key });
    expect(list.status).to.equal(400);
    expectErrorBody(list.body, 'invalid_parameter', { details: 'required' });
    const badId = await server.request('/brands/acme/carton-sizes/NOT-A-UUID', { key });
    expect(badId.status).to.equal(400);
    expectErrorBody(badId.body, 'invalid_parameter', { details: 'required' });
  });

  it('allowed brand + good parameters + unknown record => 404, and the known record => 200', async () => {
    const missing = await server.request(`/brands/acme/carton-sizes/${randomUUID()}`, { key });
    expect(missing.status).to.equal(404);
    expectErrorBody(missing.body, 'not_found');
    const found = await server.request(`/brands/acme/carton-sizes/${carton.id}`, { key });
    expect(found.status).to.equal(200);
    expect(found.body.id).to.equal(carton.id);
  });

  it("a record of another brand is 404 through the brand the key may read", async () => {
    const [other] = await insert('carton-sizes', globex.id, [{ name: 'Theirs' }]);
    const response = await server.request(`/brands/acme/carton-sizes/${other!.id}`, { key });
    expect(response.status).to.equal(404);
    expectErrorBody(response.body, 'not_found');
  });
});
