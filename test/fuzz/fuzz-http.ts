import { rawRequest, type RawResponse } from '../support/raw-request.ts';

/**
 * Requests for the fuzz tests, sent byte for byte with `rawRequest` and bounded
 * in time: a request that gets no answer within `ANSWER_MS` fails its case
 * (the socket is left to the server's close, which ends every connection).
 */

export const ANSWER_MS = 5000;

export async function send({ origin, path, headers = {}, timeoutMs = ANSWER_MS }: {
  origin: string;
  path: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}): Promise<RawResponse> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([rawRequest(origin, path, { headers }), hang]);
  } catch (error) {
    throw new Error(`GET ${shorten(path)}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

/** `Authorization: Bearer <key>`, or no header for null. */
export const bearer = (key: string | null): Record<string, string> => (key === null ? {} : { Authorization: `Bearer ${key}` });

/** A path or text cut for a message: a 1 MB URL in a report helps no one. */
export function shorten(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}
