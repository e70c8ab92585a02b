/**
 * Finds the route of a request path by its segments, with no per-route
 * regular expression: a lookup walks one tree node per segment, however many
 * families the registry holds. (@koa/router tests each route's expression in
 * turn; over the ~190 routes of 93 families that was a seventh of the CPU of
 * a get by id, docs/PERFORMANCE.md.)
 *
 * Paths match exactly (CONTRACT.md §4): another letter case, a trailing
 * slash or an empty segment is no route, so every resource has one URL (a
 * cache or a client never holds two copies of it under two spellings). As
 * with @koa/router's `sensitive` and `strict` options:
 * - literal segments compare as they are, byte for byte;
 * - a parameter (`:name`) is one non-empty segment, percent-decoded, or kept
 *   as it is when its encoding is malformed.
 * Where a literal and a parameter both fit a segment, the literal is tried
 * first, and the parameter after it if the rest of the path does not match.
 */

export interface RouteMatch<R> {
  readonly route: R;
  readonly params: Record<string, string>;
}

export interface RouteTable<R> {
  /** The route of `path` (a request's path, before any `?`), or null. */
  match(path: string): RouteMatch<R> | null;
}

interface Node<R> {
  readonly literals: Map<string, Node<R>>;
  param: { readonly name: string; readonly node: Node<R> } | null;
  route: R | null;
}

const newNode = <R>(): Node<R> => ({ literals: new Map(), param: null, route: null });

function decodeParam(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Builds the table from routes whose `path` is a pattern (`/brands/:brand/products/:id`),
 * each under `base`. Two routes with the same pattern are a definition error.
 */
export function createRouteTable<R extends { readonly path: string }>({ base, routes }: { base: string; routes: readonly R[] }): RouteTable<R> {
  const root = newNode<R>();
  for (const route of routes) {
    const pattern = `${base}${route.path}`;
    let node = root;
    for (const segment of pattern.slice(1).split('/')) {
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) throw new Error(`route ${pattern}: parameter :${name} where another route has :${node.param.name}`);
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.literals.get(segment);
        if (!next) {
          next = newNode();
          node.literals.set(segment, next);
        }
        node = next;
      }
    }
    if (node.route) throw new Error(`route ${pattern} is defined twice`);
    node.route = route;
  }

  /** Walks `segments` from `index`, collecting parameter names and values as it goes (undone on a dead end). */
  const walk = (node: Node<R>, segments: readonly string[], index: number, found: string[]): Node<R> | null => {
    if (index === segments.length) return node.route ? node : null;
    const segment = segments[index]!;
    const literal = node.literals.get(segment);
    const viaLiteral = literal ? walk(literal, segments, index + 1, found) : null;
    if (viaLiteral || !node.param || segment === '') return viaLiteral;
    found.push(node.param.name, segment);
    const viaParam = walk(node.param.node, segments, index + 1, found);
    if (!viaParam) found.length -= 2;
    return viaParam;
  };

  return {
    match(path) {
      if (!path.startsWith('/')) return null;
      const segments = path.slice(1).split('/');
      const found: string[] = [];
      const node = walk(root, segments, 0, found);
      if (!node) return null;
      const params: Record<string, string> = {};
      for (let i = 0; i < found.length; i += 2) params[found[i]!] = decodeParam(found[i + 1]!);
      return { route: node.route!, params };
    },
  };
}
