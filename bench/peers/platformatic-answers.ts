import { PLATFORMATIC_SIDES, type PlatformaticCase, type PlatformaticSide } from './platformatic-cases.ts';

/**
 * What a side answered to a case's first request, as far as the comparison
 * checks it: the status, the ids of the records in their order, and the
 * list's total where the answer has one. Records are compared by id only:
 * Platformatic prints the same rows otherwise (timestamps in milliseconds,
 * `categoryId` for the server's joined `category`); the server and the floor
 * agree byte for byte, which `npm run bench` checks.
 */
export interface Answer {
  readonly status: number;
  /** Null when the body is not a record or a list of records. */
  readonly ids: readonly string[] | null;
  readonly total: number | null;
  /** The start of the body, for a message. */
  readonly excerpt: string;
}

const idOf = (record: unknown): string | null => {
  const id = typeof record === 'object' && record !== null ? (record as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
};

function idsOf(body: unknown): string[] | null {
  // Platformatic's list is an array; the server's and the floor's are `{ items, nextCursor, totalItems }`; a get is the record.
  const records = Array.isArray(body) ? body : Array.isArray((body as { items?: unknown } | null)?.items) ? (body as { items: unknown[] }).items : [body];
  const ids = records.map(idOf);
  return ids.every((id): id is string => id !== null) ? ids : null;
}

/** An answer from its status, its `X-Total-Count` header (Platformatic's total) and its body. */
export function readAnswer({ status, totalCount, text }: { status: number; totalCount: string | null; text: string }): Answer {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: no ids, and the excerpt says what it was.
  }
  const totalItems = (body as { totalItems?: unknown } | null)?.totalItems;
  const total = totalCount !== null ? Number(totalCount) : typeof totalItems === 'number' ? totalItems : null;
  return { status, ids: body === null ? null : idsOf(body), total, excerpt: text.slice(0, 300) };
}

const SIDE_NAMES: Readonly<Record<PlatformaticSide, string>> = { server: 'the server', preparedFloor: 'the prepared floor', platformatic: 'Platformatic' };

/**
 * How the sides' answers to a case differ from the server's; empty when all
 * answered 200 with the same records in the same order, and, where the case
 * is `counted`, the same total.
 */
export function answerDifferences({ answers, counted }: { answers: Readonly<Record<PlatformaticSide, Answer>>; counted: boolean }): string[] {
  const failed = PLATFORMATIC_SIDES.filter((side) => answers[side].status !== 200);
  if (failed.length > 0) return failed.map((side) => `status ${answers[side].status} from ${SIDE_NAMES[side]}: ${answers[side].excerpt}`);
  const differences: string[] = [];
  const expected = answers.server;
  if (expected.ids === null) differences.push(`the server's answer has no records: ${expected.excerpt}`);
  for (const side of PLATFORMATIC_SIDES.filter((s) => s !== 'server')) {
    const { ids, total } = answers[side];
    if (ids === null) differences.push(`${SIDE_NAMES[side]}'s answer has no records: ${answers[side].excerpt}`);
    else if (expected.ids !== null && ids.join() !== expected.ids.join()) {
      differences.push(`${SIDE_NAMES[side]} answers other records (${ids.length} from it, ${expected.ids.length} from the server; first ${ids[0] ?? 'none'} against ${expected.ids[0] ?? 'none'})`);
    }
    if (counted && total !== expected.total) differences.push(`total ${String(total)} from ${SIDE_NAMES[side]}, ${String(expected.total)} from the server`);
  }
  return differences;
}

/** Each side's answer to the case's first request (the server's with the key). */
export async function askEverySide({ origins, key, benchCase }: {
  origins: Readonly<Record<PlatformaticSide, string>>;
  key: string;
  benchCase: PlatformaticCase;
}): Promise<Record<PlatformaticSide, Answer>> {
  const ask = async (side: PlatformaticSide): Promise<[PlatformaticSide, Answer]> => {
    const response = await fetch(`${origins[side]}${benchCase.paths[side][0]!}`, { headers: side === 'server' ? { Authorization: `Bearer ${key}` } : {} });
    return [side, readAnswer({ status: response.status, totalCount: response.headers.get('x-total-count'), text: await response.text() })];
  };
  return Object.fromEntries(await Promise.all(PLATFORMATIC_SIDES.map(ask))) as Record<PlatformaticSide, Answer>;
}
