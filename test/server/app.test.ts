import { expect } from 'chai';
import { generateKey } from '../../src/server/auth/api-keys.ts';
import { useServer } from '../support/use-server.ts';

describe('GET /api/public/v1/openapi.json', () => {
  const server = useServer();

  it('is served with no key', async () => {
    const response = await server.request('/api/public/v1/openapi.json');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(response.body.openapi).to.equal('3.1.0');
    expect(response.body.info.version).to.equal('1.5.0');
    expect(response.body.paths).to.have.property('/brands/{brand}/carton-sizes');
    expect(response.body.paths).to.have.property('/brands/{brand}/carton-sizes/{id}');
    expect(response.body.paths['/brands/{brand}/carton-sizes']).to.have.property('get');
  });

  it('is served the same with an unknown key (it needs none)', async () => {
    const anonymous = await server.request('/openapi.json');
    const withKey = await server.request('/openapi.json', { key: generateKey() });
    expect(withKey.status).to.equal(200);
    expect(withKey.body).to.deep.equal(anonymous.body);
  });

  it('describes only GET operations and the contract error codes', async () => {
    const { body } = await server.request('/openapi.json');
    for (const [path, item] of Object.entries(body.paths as Record<string, Record<string, unknown>>)) {
      expect(Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'].includes(k)), path).to.deep.equal(['get']);
    }
    for (const code of ['invalid_parameter', 'unsupported_include', 'invalid_cursor', 'cursor_mismatch', 'unauthorized', 'not_found', 'method_not_allowed', 'rate_limited', 'internal_error']) {
      expect(JSON.stringify(body)).to.contain(code);
    }
  });
});
