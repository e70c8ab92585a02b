/**
 * How the server's answer to a case differs from the floor's, for the check
 * that both do the same work: the same records byte for byte (includes too)
 * and the same total. Cursors differ by design (the floor's is a plain
 * position), so only whether there is a next page is compared. Empty when
 * they agree.
 */
export function bodyDifferences(server: unknown, floor: unknown): string[] {
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
