import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { MIN_COMPRESSED_BYTES } from '../../../src/server/middleware/compress-body.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { rawRequest, type RawResponse } from '../../support/raw-request.ts';
import { useServer } from '../../support/use-server.ts';

const DECODE: Readonly<Record<string, (bytes: Buffer) => Buffer>> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (bytes) => bytes,
};

/** The body as the client reads it, decoded by its Content-Encoding. */
const decoded = (response: RawResponse): string => DECODE[(response.headers['content-encoding'] as string | undefined) ?? 'identity']!(response.bytes).toString('utf8');

const varies = (response: RawResponse): string[] => String(response.headers.vary ?? '').split(',').map((name) => name.trim());

/** Compression by Accept-Encoding, over real HTTP (node:http, which decodes nothing: fetch would). */
describe('response compression', () => {
  const server = useServer();
  let key: string;
  const listPath = '/api/public/v1/brands/acme/carton-sizes?limit=100';
  let onePath: string;

  before(async () => {
    const fresh = await resetToBrand();
    key = fresh.key;
    const boxes = await insert('carton-sizes', fresh.brand.id, Array.from({ length: 40 }, (_, i) => ({ name: `Box ${i}`, lengthCm: `${10 + i}.00` })));
    onePath = `/api/public/v1/brands/acme/carton-sizes/${boxes[0]!.id as string}`;
  });

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> =>
    rawRequest(server.origin, path, { method, headers: { Authorization: `Bearer ${key}`, ...headers } });

  it('sends a list page in br, gzip or as it is, the same JSON each way, with a tag per coding', async () => {
    const identity = await get(listPath);
    expect(identity.status).to.equal(200);
    expect(identity.bytes.length).to.be.greaterThan(MIN_COMPRESSED_BYTES);
    expect(identity.headers['content-encoding']).to.equal(undefined);
    const tag = identity.headers.etag as string;
    expect(tag).to.match(/^"[A-Za-z0-9_-]{32}"$/);
    for (const [accept, coding] of [['br', 'br'], ['gzip, deflate', 'gzip'], ['gzip, deflate, br', 'br'], ['br;q=0, gzip', 'gzip'], ['identity', undefined]] as const) {
      const response = await get(listPath, { 'Accept-Encoding': accept });
      expect(response.status, accept).to.equal(200);
      expect(response.headers['content-encoding'], accept).to.equal(coding);
      expect(response.headers.etag, accept).to.equal(coding ? `${tag.slice(0, -1)}-${coding}"` : tag);
      expect(varies(response), accept).to.deep.equal(['Authorization', 'Accept-Encoding']);
      expect(Number(response.headers['content-length']), accept).to.equal(response.bytes.length);
      expect(response.headers['content-type'], accept).to.equal('application/json; charset=utf-8');
      expect(decoded(response), accept).to.equal(identity.text);
      if (coding) expect(response.bytes.length, accept).to.be.lessThan(identity.bytes.length / 2);
    }
    expect(varies(identity), 'no Accept-Encoding').to.deep.equal(['Authorization', 'Accept-Encoding']);
  });

  it('answers 304 to the tag of any coding, in any coding, with the tag this request would have had', async () => {
    const tags: Record<string, string> = {};
    for (const coding of ['br', 'gzip', 'identity']) tags[coding] = (await get(listPath, { 'Accept-Encoding': coding })).headers.etag as string;
    expect(new Set(Object.values(tags)).size).to.equal(3);
    for (const sent of Object.values(tags)) {
      for (const coding of ['br', 'gzip', 'identity']) {
        const response = await get(listPath, { 'Accept-Encoding': coding, 'If-None-Match': sent });
        expect(response.status, `${sent} with ${coding}`).to.equal(304);
        expect(response.bytes.length).to.equal(0);
        expect(response.headers['content-encoding']).to.equal(undefined);
        expect(response.headers.etag, `${sent} with ${coding}`).to.equal(tags[coding]);
        expect(varies(response)).to.deep.equal(['Authorization', 'Accept-Encoding']);
      }
    }
    expect((await get(listPath, { 'Accept-Encoding': 'br', 'If-None-Match': `W/${tags.br!}` })).status, 'weak comparison').to.equal(304);
    expect((await get(listPath, { 'Accept-Encoding': 'br', 'If-None-Match': `${tags.identity!.slice(0, -1)}-deflate"` })).status, 'a coding the server never sends').to.equal(200);
  });

  it('answers HEAD with the headers of the GET in the same coding, and no body', async () => {
    const getBr = await get(listPath, { 'Accept-Encoding': 'br' });
    const head = await get(listPath, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).to.equal(200);
    expect(head.bytes.length).to.equal(0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary']) expect(head.headers[name], name).to.equal(getBr.headers[name]);
  });

  it('sends a body under 1 KB as it is, still varying by Accept-Encoding', async () => {
    const response = await get(onePath, { 'Accept-Encoding': 'br, gzip' });
    expect(response.status).to.equal(200);
    expect(response.bytes.length).to.be.lessThan(MIN_COMPRESSED_BYTES);
    expect(response.headers['content-encoding']).to.equal(undefined);
    expect(response.headers.etag).to.match(/^"[A-Za-z0-9_-]{32}"$/);
    expect(varies(response)).to.deep.equal(['Authorization', 'Accept-Encoding']);
    expect(JSON.parse(response.text).id).to.be.a('string');
  });

  it('compresses the OpenAPI document, the same bytes on every request', async () => {
    const path = '/api/public/v1/openapi.json';
    const identity = await rawRequest(server.origin, path);
    expect(varies(identity)).to.deep.equal(['Accept-Encoding']);
    for (const coding of ['br', 'gzip']) {
      const first = await rawRequest(server.origin, path, { headers: { 'Accept-Encoding': coding } });
      const second = await rawRequest(server.origin, path, { headers: { 'Accept-Encoding': coding } });
      expect(first.headers['content-encoding'], coding).to.equal(coding);
      expect(first.bytes.length, coding).to.be.lessThan(identity.bytes.length / 10);
      expect(second.bytes.equals(first.bytes), coding).to.equal(true);
      expect(decoded(first), coding).to.equal(identity.text);
      expect(varies(first)).to.deep.equal(['Accept-Encoding']);
    }
  });

  it("compresses the docs site's text: its stylesheet and Scalar's bundle", async () => {
    const css = await rawRequest(server.origin, '/api/public/v1/docs/assets/docs.css', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(css.headers['content-encoding']).to.equal('gzip');
    expect(decoded(css)).to.include('.docs-bar');
    const bundle = await rawRequest(server.origin, '/api/public/v1/docs/assets/scalar-api-reference.js', { headers: { 'Accept-Encoding': 'br' } });
    expect(bundle.headers['content-encoding']).to.equal('br');
  });

  it('compresses an error body over 1 KB too', async () => {
    const unknown = Array.from({ length: 40 }, (_, i) => `unknownParameter${i}=1`).join('&');
    const response = await get(`/api/public/v1/brands/acme/carton-sizes?${unknown}`, { 'Accept-Encoding': 'gzip' });
    expect(response.status).to.equal(400);
    expect(response.headers['content-encoding']).to.equal('gzip');
    const body = JSON.parse(decoded(response));
    expect(body.errorCode).to.equal('invalid_parameter');
    expect(body.details).to.have.length(40);
    expect(response.headers['cache-control']).to.equal('no-store');
  });
});
