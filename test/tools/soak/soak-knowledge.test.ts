import { expect } from 'chai';
import { API_BASE_PATH } from '../../../src/server/http/api-base-path.ts';
import { createSoakKnowledge } from '../../../tools/soak/soak-knowledge.ts';
import { soakRequest, type SoakKind } from '../../../tools/soak/soak-request.ts';

const target = { key: { label: 'northwind', key: 'k', brands: ['northwind'] }, brand: 'northwind' };
const path = `${API_BASE_PATH}/brands/northwind/products`;
const request = (kind: SoakKind, at = path, depth = 1) => soakRequest(kind, target, at, { depth });
const page = (ids: string[], nextCursor: string | null = null): string => JSON.stringify({ items: ids.map((id) => ({ id, code: `C-${id}` })), nextCursor });

describe('createSoakKnowledge', () => {
  it('learns up to ten ids and the first record of a family from its first page', () => {
    const knowledge = createSoakKnowledge();
    expect(knowledge.known('northwind', 'products')).to.equal(null);
    const ids = Array.from({ length: 12 }, (_, i) => `id-${i}`);
    knowledge.learn(request('list'), { status: 200, etag: null, body: page(ids) });
    expect(knowledge.known('northwind', 'products')).to.deep.equal({ ids: ids.slice(0, 10), first: { id: 'id-0', code: 'C-id-0' } });
  });

  it('names the families of a brand that taught at least one id', () => {
    const knowledge = createSoakKnowledge();
    knowledge.learn(request('list'), { status: 200, etag: null, body: page(['a']) });
    knowledge.learn(request('list', `${API_BASE_PATH}/brands/northwind/skus`), { status: 200, etag: null, body: page([]) });
    knowledge.learn(request('list', `${API_BASE_PATH}/brands/northwind/notes`), { status: 200, etag: null, body: page(['b']) });
    expect(knowledge.familiesWithIds('northwind')).to.deep.equal(['products', 'notes']);
    expect(knowledge.familiesWithIds('north')).to.deep.equal([]);
  });

  it('keeps the ETags of lists and gets, to ask for them conditionally', () => {
    const knowledge = createSoakKnowledge();
    knowledge.learn(request('list'), { status: 200, etag: '"a"', body: page([]) });
    knowledge.learn(request('get', `${path}/x`), { status: 200, etag: '"b"', body: '{}' });
    knowledge.learn(request('list-filter', `${path}?code=x`), { status: 200, etag: '"c"', body: page([]) });
    knowledge.learn(request('list', `${path}?limit=0`), { status: 400, etag: '"d"', body: '{}' });
    expect(knowledge.etags()).to.deep.equal([
      { brand: 'northwind', path, etag: '"a"' },
      { brand: 'northwind', path: `${path}/x`, etag: '"b"' },
    ]);
  });

  it('follows a next page a few pages deep, the newest cursor first', () => {
    const knowledge = createSoakKnowledge();
    knowledge.learn(request('list', `${path}?limit=10`), { status: 200, etag: null, body: page(['a'], 'c1') });
    knowledge.learn(request('list-limit', `${path}?limit=5`), { status: 200, etag: null, body: page(['a'], 'c2') });
    knowledge.learn(request('next-page', `${path}?cursor=c3`, 4), { status: 200, etag: null, body: page(['a'], 'c4') });
    expect(knowledge.takeCursor()).to.deep.equal({ brand: 'northwind', key: target.key, path: `${path}?limit=5&cursor=c2`, depth: 2 });
    expect(knowledge.takeCursor()!.path).to.equal(`${path}?limit=10&cursor=c1`);
    expect(knowledge.takeCursor(), 'not past page 4').to.equal(null);
  });

  it('ignores what is not a 200 or not JSON', () => {
    const knowledge = createSoakKnowledge();
    knowledge.learn(request('list'), { status: 500, etag: null, body: page(['a'], 'c') });
    knowledge.learn(request('list'), { status: 200, etag: null, body: 'not json' });
    expect([knowledge.known('northwind', 'products'), knowledge.takeCursor()]).to.deep.equal([null, null]);
  });
});
