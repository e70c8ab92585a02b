import { createHash } from 'node:crypto';

/**
 * Ids for the demo data: UUIDs (version 4 in form) derived from a name and a
 * counter, so every load of the demo gives every record the same id. The docs
 * quote demo records as examples, and an id read in the docs works against
 * any fresh demo database.
 */
export function createIdSequence(name: string): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    const hex = createHash('sha256').update(`${name}:${counter}`).digest('hex');
    const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}
