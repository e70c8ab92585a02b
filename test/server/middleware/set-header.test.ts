import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { setHeader } from '../../../src/server/middleware/set-header.ts';

/** setHeader on a real Koa app: a header set before the headers leave is sent, one set after is not (and throws nothing). */
describe('setHeader', () => {
  it('sets a header as ctx.set does, replacing an earlier value, and does nothing once the headers are sent', async () => {
    let late: unknown = 'not called';
    const app = new Koa();
    app.use(async (ctx) => {
      ctx.set('X-Kept', 'koa');
      setHeader(ctx, 'X-Kept', 'replaced');
      setHeader(ctx, 'X-Set', 'one');
      expect(ctx.response.get('X-Set'), 'seen by Koa too').to.equal('one');
      ctx.respond = false;
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain' });
      ctx.res.end('done');
      try {
        setHeader(ctx, 'X-Late', 'too late');
        late = null;
      } catch (error) {
        late = error;
      }
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await response.text()).to.equal('done');
      expect(response.headers.get('x-kept')).to.equal('replaced');
      expect(response.headers.get('x-set')).to.equal('one');
      expect(response.headers.get('x-late')).to.equal(null);
      expect(late, 'no throw after the headers left').to.equal(null);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
