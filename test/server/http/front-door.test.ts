import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { FRONT_DOOR } from '../../../src/server/http/front-door.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { useServer } from '../../support/use-server.ts';

const packageVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('the front door: GET / and GET /api/public/v1', () => {
  const server = useServer();

  for (const path of ['/', '/api/public/v1']) {
    it(`${path} says, without a key, what the service is and where its docs and OpenAPI document are`, async () => {
      const response = await server.request(`${server.origin}${path}`, { key: null });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(response.body).to.deep.equal({
        name: 'Brand Catalog Read API',
        version: packageVersion,
        docs: '/api/public/v1/docs',
        gettingStarted: '/api/public/v1/docs/getting-started',
        openapi: '/api/public/v1/openapi.json',
      });
      expect(response.headers.get('x-request-id')).to.be.a('string');
    });
  }

  it('points to pages that answer without a key', async () => {
    for (const url of [FRONT_DOOR.docs, FRONT_DOOR.gettingStarted, FRONT_DOOR.openapi]) {
      const response = await fetch(`${server.origin}${url}`);
      expect(response.status, url).to.equal(200);
    }
  });

  it('matches exactly, as every path does: a trailing slash is 404, another method 405', async () => {
    const slash = await server.request(`${server.origin}/api/public/v1/`, { key: null });
    expect(slash.status).to.equal(404);
    expectErrorBody(slash.body, 'not_found');
    const post = await fetch(`${server.origin}/`, { method: 'POST' });
    expect(post.status).to.equal(405);
    expect(post.headers.get('allow')).to.equal('GET, HEAD');
  });
});
