import { expect } from 'chai';
import { ApiError, SyncTokenExpiredError, type CartonSize, type FollowedBatch } from '../../client/src/index.ts';
import { followChanges } from '../../client/src/follow-changes.ts';
import type { ChangeBatch } from '../../client/src/change-batch.ts';
import { insert } from '../support/fixtures.ts';
import { waitFor } from '../support/wait-for.ts';
import { requestsTo, useClientApi } from './use-client-api.ts';

/** `client.follow()` / `client.<family>.follow()` (CONTRACT.md §7): live batches over the real server, backoff and stop. */
describe('client: follow', () => {
  const api = useClientApi();

  it('yields the full sync, then each change as it commits, waiting on the server between, until the signal aborts', async () => {
    const [first] = await insert('carton-sizes', api.brand.id, [{ name: 'first' }]);
    const stop = new AbortController();
    const seen: FollowedBatch<CartonSize>[] = [];
    const following = (async () => {
      for await (const batch of api.client['carton-sizes'].follow({ wait: 5, signal: stop.signal })) seen.push(batch);
    })();
    await waitFor(async () => seen.length === 1 && api.server.live.waiting() === 1, { intervalMs: 10, what: 'the full sync, then a waiting call' });
    expect(seen[0]!.items.map((item) => item.id)).to.deep.equal([first!.id]);
    const [second] = await insert('carton-sizes', api.brand.id, [{ name: 'second' }]);
    await waitFor(async () => seen.length === 2, { intervalMs: 10, timeoutMs: 3000, what: 'the change, live' });
    expect(seen[1]!.items.map((item) => [item.change, item.id])).to.deep.equal([['upsert', second!.id]]);
    expect(seen[1]!.syncToken).to.be.a('string').and.not.equal(seen[0]!.syncToken);
    stop.abort();
    await following;
    const calls = requestsTo(api.server, '/brands/acme/carton-sizes/changes');
    expect(calls.length).to.be.at.least(2);
  });

  it('backs off and retries a failed call with the same token; a 410 is thrown; a bad wait is refused', async () => {
    const tokens: (string | null)[] = [];
    let calls = 0;
    const errors: Error[] = [];
    const stop = new AbortController();
    const batchOf = (token: string | null): ChangeBatch<never> => {
      tokens.push(token);
      calls += 1;
      const failing = calls === 2;
      return {
        syncToken: `t${calls}`,
        [Symbol.asyncIterator]() { return this; },
        next: async () => {
          if (failing) throw new ApiError({ status: 503, errorCode: 'internal_error', message: 'down', details: null, requestId: null, retryAfterSeconds: 0, url: '' });
          return { done: true, value: `t${calls}` };
        },
      } as unknown as ChangeBatch<never>;
    };
    const batches: string[] = [];
    for await (const batch of followChanges({ batchOf, wait: 1, signal: stop.signal, onError: (error) => errors.push(error) })) {
      batches.push(batch.syncToken);
      if (batches.length === 2) stop.abort();
    }
    expect(tokens).to.deep.equal([null, 't1', 't1']);
    expect(errors).to.have.length(1);
    const expired = followChanges({
      batchOf: () => ({ [Symbol.asyncIterator]() { return this; }, next: async () => { throw new SyncTokenExpiredError({ status: 410, errorCode: 'sync_token_expired', message: 'old', details: null, requestId: null, retryAfterSeconds: null, url: '' }); } }) as unknown as ChangeBatch<never>,
      syncToken: 'old',
    });
    let thrown: unknown = null;
    try {
      await expired.next();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(SyncTokenExpiredError);
    let refused: unknown = null;
    try {
      await followChanges({ batchOf, wait: 61 }).next();
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(RangeError);
  });
});
