import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { ASYNC_FROM_BYTES, encodeBody, encodedTag, staticBody, tagsOfEveryCoding } from '../../../src/server/middleware/content-codings.ts';

const DECODE = { br: brotliDecompressSync, gzip: gunzipSync } as const;

/** A JSON-like body of about `size` bytes. */
const body = (size: number): Buffer => Buffer.from(JSON.stringify(Array.from({ length: Math.ceil(size / 60) }, (_, i) => ({ id: i, name: `Box ${i}`, lengthCm: `${i}.00` }))));

describe('content codings', () => {
  it('puts the coding inside the quotes of a strong tag, and leaves identity and weak tags alone', () => {
    expect(encodedTag('"abc"', 'br')).to.equal('"abc-br"');
    expect(encodedTag('"abc"', 'gzip')).to.equal('"abc-gzip"');
    expect(encodedTag('"abc"', 'identity')).to.equal('"abc"');
    expect(encodedTag('W/"abc"', 'br')).to.equal('W/"abc"');
    expect(tagsOfEveryCoding('"abc"')).to.deep.equal(['"abc"', '"abc-br"', '"abc-gzip"']);
  });

  for (const coding of ['br', 'gzip'] as const) {
    it(`encodes ${coding} bodies small and large (synchronously below ${ASYNC_FROM_BYTES} bytes) to bytes that decode back`, async () => {
      const small = body(4_000);
      const encodedSmall = encodeBody(small, coding);
      expect(Buffer.isBuffer(encodedSmall)).to.equal(true);
      expect(DECODE[coding](encodedSmall as Buffer).equals(small)).to.equal(true);
      const large = body(ASYNC_FROM_BYTES * 2);
      const encodedLarge = encodeBody(large, coding);
      expect(encodedLarge).to.be.instanceOf(Promise);
      expect(DECODE[coding](await encodedLarge).equals(large)).to.equal(true);
    });

    it(`encodes a static body in ${coding} once, and gives the same bytes after`, async () => {
      const bytes = staticBody(body(20_000));
      const first = encodeBody(bytes, coding);
      expect(encodeBody(bytes, coding)).to.equal(first);
      expect(DECODE[coding](await first).equals(bytes)).to.equal(true);
    });
  }
});
