import { expect } from 'chai';
import { soakRequest } from '../../../tools/soak/soak-request.ts';

describe('soakRequest', () => {
  const target = { key: { label: 'global', key: 'k', brands: ['a', 'b'] }, brand: 'b' };

  it('asks as the target, for a 200 on a first page with no headers, unless told otherwise; frozen', () => {
    const request = soakRequest('list', target, '/x');
    expect(request).to.deep.equal({ kind: 'list', path: '/x', key: target.key, brand: 'b', headers: {}, expect: 200, depth: 1 });
    expect(Object.isFrozen(request)).to.equal(true);
    expect(soakRequest('conditional', target, '/x', { headers: { 'If-None-Match': '"e"' }, expect: 304, depth: 3 }))
      .to.deep.include({ kind: 'conditional', headers: { 'If-None-Match': '"e"' }, expect: 304, depth: 3 });
  });
});
