import { hash } from 'node:crypto';

/** SHA-256's block: a key longer than this is hashed first (RFC 2104). */
const BLOCK_BYTES = 64;

/**
 * HMAC-SHA256 (RFC 2104) with a key fixed once: `(payload) => mac`, the same
 * bytes as `createHmac('sha256', key).update(payload).digest()`.
 *
 * Why not `createHmac`: it sets the key up anew on every call (OpenSSL 3
 * fetches the algorithm and builds a key object each time), which cost more
 * than the MAC itself, and every page's cursor and every changes token is
 * signed and checked. Here the key's two padded blocks are made once and
 * each MAC is two one-shot hashes.
 */
export function hmacSha256(key: string | Buffer): (payload: string) => Buffer {
  let bytes: Buffer = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
  if (bytes.length > BLOCK_BYTES) bytes = hash('sha256', bytes, 'buffer') as Buffer;
  const padded = (fill: number): Buffer => {
    const block = Buffer.alloc(BLOCK_BYTES, fill);
    for (let i = 0; i < bytes.length; i++) block[i] = bytes[i]! ^ fill;
    return block;
  };
  const inner = padded(0x36);
  const outer = padded(0x5c);
  return (payload) => {
    const innerHash = hash('sha256', Buffer.concat([inner, Buffer.from(payload, 'utf8')]), 'buffer') as Buffer;
    return hash('sha256', Buffer.concat([outer, innerHash]), 'buffer') as Buffer;
  };
}
