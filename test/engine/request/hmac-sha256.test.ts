import { createHmac, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { hmacSha256 } from '../../../src/engine/request/hmac-sha256.ts';

describe('hmacSha256: an HMAC with its key set up once', () => {
  it('gives the bytes createHmac gives, for keys shorter than, equal to and longer than a block', () => {
    for (const length of [1, 32, 63, 64, 65, 200]) {
      const key = randomBytes(length).toString('hex').slice(0, length);
      const mac = hmacSha256(key);
      for (const payload of ['', 'a', 'eyJ2IjoyfQ', 'é'.repeat(100), randomBytes(300).toString('base64url')]) {
        expect(mac(payload).equals(createHmac('sha256', key).update(payload).digest()), `key of ${length}, payload '${payload.slice(0, 10)}'`).to.equal(true);
      }
    }
  });

  it('takes a key as bytes, and two keys never share a MAC', () => {
    const key = randomBytes(48);
    expect(hmacSha256(key)('x').equals(createHmac('sha256', key).update('x').digest())).to.equal(true);
    expect(hmacSha256('a'.repeat(32))('x').equals(hmacSha256('b'.repeat(32))('x'))).to.equal(false);
  });
});
