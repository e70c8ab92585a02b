import { expect } from 'chai';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { ApiError } from '../../../src/engine/request/api-error.ts';
import type { KeyGrant } from '../../../src/server/auth/api-keys.ts';
import { keyRefused } from '../../../src/server/auth/key-refusal.ts';
import { familyGuard } from '../../../src/server/middleware/family-guard.ts';

const BRAND = { id: '0b1e0000-0000-4000-8000-000000000001', slug: 'acme' };
const grant = (changes: Partial<KeyGrant> = {}): KeyGrant => ({ keyId: 'k', brand: BRAND, allowed: true, expiresAt: null, restriction: null, rateLimit: null, ...changes });

/**
 * The guard before every family route, with each concern a stand-in that
 * notes its turn: what ran, in which order, and how the request ended.
 */
async function guarded({ ready = true, key = grant() as KeyGrant | Error, family = null as Error | null, ifNoneMatch = null as string | null, route = null as Error | null } = {}) {
  const calls: string[] = [];
  const request = new IncomingMessage(new Socket());
  if (ifNoneMatch) request.headers['if-none-match'] = ifNoneMatch;
  const ctx = new Koa().createContext(request, new ServerResponse(request));
  const guard = familyGuard({
    readiness: { ready: () => ready, retryAfterSeconds: () => 7 },
    authenticate: async (context) => {
      calls.push('key');
      if (key instanceof Error) throw key;
      context.state.grant = key;
    },
    counting: { count: async () => void calls.push('count'), refund: async () => void calls.push('refund') },
    authorizeFamily: () => {
      calls.push('family');
      if (family) throw family;
    },
  });
  let error: ApiError | null = null;
  try {
    await guard(ctx, async () => {
      calls.push('route');
      if (route) throw route;
      expect(ctx.state.brand, 'the brand, for the route').to.deep.equal(BRAND);
      ctx.body = { id: 'r1' };
    });
  } catch (thrown) {
    error = thrown as ApiError;
  }
  return { calls, ctx, error, status: error ? error.status : ctx.status, cacheControl: ctx.response.get('Cache-Control') };
}

describe('familyGuard', () => {
  it('checks the key, counts it, then the brand and the family, before the route; tags a 200 for revalidation', async () => {
    const { calls, ctx, status, cacheControl } = await guarded();
    expect(calls).to.deep.equal(['key', 'count', 'family', 'route']);
    expect(status).to.equal(200);
    expect(cacheControl).to.equal('private, no-cache');
    expect(ctx.response.get('ETag')).to.match(/^"[A-Za-z0-9_-]{32}"$/);
    expect(ctx.response.get('Vary')).to.contain('Authorization');
  });

  it('answers 503 before anything else while the database is not ready, never to be stored', async () => {
    const { calls, error, cacheControl } = await guarded({ ready: false });
    expect(calls).to.deep.equal([]);
    expect(error).to.deep.include({ status: 503, headers: { 'Retry-After': '7' } });
    expect(cacheControl).to.equal('no-store');
  });

  it('counts nothing for a refused key', async () => {
    const { calls, error, cacheControl } = await guarded({ key: keyRefused('missing') });
    expect(calls).to.deep.equal(['key']);
    expect(error).to.deep.include({ status: 401, details: { reason: 'missing' } });
    expect(cacheControl).to.equal('no-store');
  });

  it('counts a valid key whatever its brand: 404 for no such brand, 401 for another brand, before the family', async () => {
    const unknown = await guarded({ key: grant({ brand: null }) });
    expect(unknown.calls).to.deep.equal(['key', 'count']);
    expect(unknown.error).to.deep.include({ status: 404, errorCode: 'not_found' });
    const other = await guarded({ key: grant({ allowed: false }) });
    expect(other.calls).to.deep.equal(['key', 'count']);
    expect(other.error).to.deep.include({ status: 401, details: { reason: 'brand_not_allowed' } });
  });

  it('refuses a family the key may not read after its brand, before the route', async () => {
    const { calls, error } = await guarded({ family: keyRefused('family_not_allowed') });
    expect(calls).to.deep.equal(['key', 'count', 'family']);
    expect(error).to.deep.include({ status: 401, details: { reason: 'family_not_allowed' } });
  });

  it('answers 304 to the tag the client holds, giving its point back; a route that fails is neither tagged nor refunded', async () => {
    const first = await guarded();
    const tag = first.ctx.response.get('ETag');
    const again = await guarded({ ifNoneMatch: tag });
    expect(again.status).to.equal(304);
    expect(again.calls).to.deep.equal(['key', 'count', 'family', 'route', 'refund']);
    const failed = await guarded({ ifNoneMatch: tag, route: new ApiError({ errorCode: 'invalid_parameter' }) });
    expect(failed.calls).to.deep.equal(['key', 'count', 'family', 'route']);
    expect(failed.error).to.deep.include({ status: 400 });
    expect(failed.ctx.res.hasHeader('ETag')).to.equal(false);
  });
});
