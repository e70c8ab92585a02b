import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createKey } from '../../../src/server/auth/key-admin.ts';
import { AREAS } from '../../../src/engine/definition/normalize-resource.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';

/**
 * Keys of least privilege (CONTRACT.md §4): a key restricted to families and
 * areas reads only those, on every route (list, get, changes, counts) and
 * as includes; anything else is 401 `family_not_allowed`, checked after the
 * brand and before the parameters. The brand's own record is open to it.
 */
describe('restricted keys: families and areas (authorize-family.ts)', () => {
  const server = useServer({ rateLimitPoints: 1000 });
  let acme: { id: string; slug: string };
  /** Logistics, and invoices by name. */
  let forwarder: string;
  let shipmentId: string;
  let orderId: string;

  const restricted = async (scope: { families?: string[]; areas?: string[]; rateLimit?: number; global?: boolean }): Promise<string> => {
    const { db, registry } = await testDatabase();
    const known = { families: registry.resources.filter((r) => r.scope !== 'tenant').map((r) => r.path), areas: AREAS };
    return (await createKey(db, { brands: scope.global ? [] : ['acme'], global: scope.global ?? false, expiresAt: null, known, ...scope })).key;
  };

  beforeEach(async () => {
    ({ brand: acme } = await resetToBrand('acme'));
    await createBrand('globex');
    forwarder = await restricted({ areas: ['logistics'], families: ['invoices'] });
    [{ id: orderId }] = await insert('orders', acme.id, [{ code: 'PO-1', status: 'issued' }]) as [{ id: string }];
    [{ id: shipmentId }] = await insert('shipments', acme.id, [{ code: 'SH-1', status: 'booked' }]) as [{ id: string }];
    await insert('invoices', acme.id, [{ code: 'INV-1', orderId, shipmentId }]);
  });

  it('reads the families of its areas and the ones it names, on every route', async () => {
    for (const path of ['shipments', `shipments/${shipmentId}`, 'shipments/changes', 'shipments/counts?by=status', 'invoices', 'invoices/counts?by=status', 'legs', 'goods-receipts']) {
      const response = await server.request(`/brands/acme/${path}`, { key: forwarder });
      expect(response.status, `${path}: ${response.text}`).to.equal(200);
    }
    const brand = await server.request('/brands/acme', { key: forwarder });
    expect(brand.status, 'the brand\'s own record is open to every key of the brand').to.equal(200);
  });

  it('refuses every route of another family with 401 family_not_allowed, never a smaller answer', async () => {
    for (const path of ['orders', `orders/${orderId}`, 'orders/changes', 'orders/counts?by=status', 'products', 'payments']) {
      const response = await server.request(`/brands/acme/${path}`, { key: forwarder });
      expect(response.status, path).to.equal(401);
      expectErrorBody(response.body, 'unauthorized');
      expect(response.body.details, path).to.deep.equal({ reason: 'family_not_allowed' });
      expect(response.body.error, path).to.match(/^The API key is restricted to other families and areas\. It may not read [a-z-]+\.$/);
      // A live key: nothing is wrong with the token itself.
      expect(response.headers.get('www-authenticate'), path).to.equal(null);
    }
  });

  it('refuses an include of a family it may not read, and embeds one it may', async () => {
    const refused = await server.request('/brands/acme/invoices?include=lines,order', { key: forwarder });
    expect(refused.status).to.equal(401);
    expect(refused.body.details).to.deep.equal({ reason: 'family_not_allowed' });
    const refusedGet = await server.request(`/brands/acme/shipments/${shipmentId}?include=courier`, { key: forwarder });
    expect(refusedGet.body.details).to.deep.equal({ reason: 'family_not_allowed' });
    // The message names what was refused: the family, and the include that asked for it.
    expect(refusedGet.body.error).to.equal('The API key is restricted to other families and areas. It may not read couriers, asked as the include courier.');
    const allowed = await server.request('/brands/acme/invoices?include=shipment', { key: forwarder });
    expect(allowed.status, allowed.text).to.equal(200);
    expect(allowed.body.items[0].shipment.id).to.equal(shipmentId);
    // An include the family does not have is the parameters' business: 400, after the family's check.
    const unknown = await server.request('/brands/acme/invoices?include=nope', { key: forwarder });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errorCode).to.equal('unsupported_include');
  });

  it('checks the family after the brand and before the parameters and the record', async () => {
    const cases: [string, number, string][] = [
      ['/brands/no-such-brand/orders?limit=0', 404, 'not_found'],
      ['/brands/globex/orders?limit=0', 401, 'unauthorized'],
      ['/brands/acme/orders?limit=0&bogus=1', 401, 'unauthorized'],
      [`/brands/acme/orders/${randomUUID()}`, 401, 'unauthorized'],
      ['/brands/acme/shipments?limit=0', 400, 'invalid_parameter'],
      [`/brands/acme/shipments/${randomUUID()}`, 404, 'not_found'],
    ];
    for (const [path, status, code] of cases) {
      const response = await server.request(path, { key: forwarder });
      expect(response.status, path).to.equal(status);
      expect(response.body.errorCode, path).to.equal(code);
    }
    const brandRefused = await server.request('/brands/globex/shipments', { key: forwarder });
    expect(brandRefused.body.details).to.deep.equal({ reason: 'brand_not_allowed' });
  });

  it('restricts a global key too, on every brand', async () => {
    const everywhere = await restricted({ global: true, families: ['orders'] });
    expect((await server.request('/brands/globex/orders', { key: everywhere })).status).to.equal(200);
    expect((await server.request('/brands/acme/orders', { key: everywhere })).status).to.equal(200);
    expect((await server.request('/brands/acme/shipments', { key: everywhere })).body.details).to.deep.equal({ reason: 'family_not_allowed' });
  });

  it('counts a key with a limit of its own against it, and says so in RateLimit-Policy', async () => {
    const limited = await restricted({ areas: ['logistics'], rateLimit: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await server.request('/brands/acme/shipments', { key: limited });
      statuses.push(response.status);
      expect(response.headers.get('ratelimit-policy')).to.equal('"default";q=3;w=60');
    }
    expect(statuses).to.deep.equal([200, 200, 200, 429]);
    // A key without its own limit has the service's.
    const open = await server.request('/brands/acme/shipments', { key: forwarder });
    expect(open.headers.get('ratelimit-policy')).to.equal('"default";q=1000;w=60');
  });
});
