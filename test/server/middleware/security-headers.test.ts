import { expect } from 'chai';
import { resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';

describe('security headers', () => {
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('sets security headers on API answers, errors and unknown paths', async () => {
    for (const response of [
      await server.request('/brands/acme/carton-sizes', { key }),
      await server.request('/brands/acme/carton-sizes', { key: null }),
      await server.request('/nowhere', { key: null }),
    ]) {
      expect(response.headers.get('x-content-type-options'), String(response.status)).to.equal('nosniff');
      expect(response.headers.get('x-frame-options')).to.equal('DENY');
      expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(response.headers.get('content-security-policy')).to.equal("default-src 'none'; frame-ancestors 'none'");
    }
    // The docs pages keep their own policy.
    const docs = await server.request('/docs', { key: null });
    expect(docs.headers.get('content-security-policy')).to.contain("default-src 'self'");
  });

  it('keeps other origins from reading or framing any answer, the probes and the OpenAPI document included', async () => {
    for (const path of ['/brands/acme/carton-sizes', '/openapi.json', `${server.origin}/healthz`, `${server.origin}/readyz`]) {
      const response = await server.request(path, { key });
      expect(response.headers.get('cross-origin-resource-policy'), path).to.equal('same-origin');
      expect(response.headers.get('x-frame-options'), path).to.equal('DENY');
      expect(response.headers.get('x-content-type-options'), path).to.equal('nosniff');
    }
  });
});
