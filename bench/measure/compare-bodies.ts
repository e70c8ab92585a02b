/**
 * How the server's answer to a case differs from the floor's, for the check
 * that both do the same work: the same records byte for byte (includes too)
 * and the same total. Cursors differ by design (the floor's is a plain
 * position), so only whether there is a next page is compared. Counts by
 * value (CONTRACT.md §8) must agree exactly, byte for byte: the values, their
 * counts and order, `otherItems` and `totalItems`. Empty when they agree.
 */
export function bodyDifferences(server: unknown, floor: unknown): string[] {
  if (isCounts(server) && isCounts(floor)) return countsDifferences(server, floor);
  if (!isList(server) || !isList(floor)) {
    return JSON.stringify(server) === JSON.stringify(floor) ? [] : ['the records differ'];
  }
  const differences: string[] = [];
  if (server.items.length !== floor.items.length) {
    differences.push(`${server.items.length} items from the server, ${floor.items.length} from the floor`);
  }
  const differing = server.items.findIndex((item, i) => JSON.stringify(item) !== JSON.stringify(floor.items[i]));
  if (differing !== -1 && differing < floor.items.length) differences.push(`item ${differing} differs`);
  if (server.totalItems !== floor.totalItems) differences.push(`totalItems ${String(server.totalItems)} from the server, ${String(floor.totalItems)} from the floor`);
  if ((server.nextCursor === null) !== (floor.nextCursor === null)) differences.push('only one of them has a next page');
  return differences;
}

function isList(body: unknown): body is { items: unknown[]; totalItems: unknown; nextCursor: unknown } {
  return typeof body === 'object' && body !== null && Array.isArray((body as { items?: unknown }).items);
}

interface CountsBody {
  by: unknown;
  counts: { value: unknown; count: unknown }[];
  otherItems: unknown;
  totalItems: unknown;
}

function isCounts(body: unknown): body is CountsBody {
  return typeof body === 'object' && body !== null && Array.isArray((body as { counts?: unknown }).counts) && 'by' in body;
}

/** What differs between two counts bodies: each part named; the whole body too, for the order of its keys. */
function countsDifferences(server: CountsBody, floor: CountsBody): string[] {
  const differences: string[] = [];
  if (server.by !== floor.by) differences.push(`by ${String(server.by)} from the server, ${String(floor.by)} from the floor`);
  if (server.counts.length !== floor.counts.length) differences.push(`${server.counts.length} counts from the server, ${floor.counts.length} from the floor`);
  const differing = server.counts.findIndex((entry, i) => JSON.stringify(entry) !== JSON.stringify(floor.counts[i]));
  if (differing !== -1 && differing < floor.counts.length) {
    differences.push(`count ${differing} differs: ${JSON.stringify(server.counts[differing])} from the server, ${JSON.stringify(floor.counts[differing])} from the floor`);
  }
  for (const key of ['otherItems', 'totalItems'] as const) {
    if (server[key] !== floor[key]) differences.push(`${key} ${String(server[key])} from the server, ${String(floor[key])} from the floor`);
  }
  if (differences.length === 0 && JSON.stringify(server) !== JSON.stringify(floor)) differences.push('the counts bodies differ');
  return differences;
}
