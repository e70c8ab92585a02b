import { expect } from 'chai';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { createApiRoutes } from '../../../src/server/http/api-routes.ts';

function contextFor(method: string, path: string): Koa.Context {
  const request = new IncomingMessage(new Socket());
  request.method = method;
  request.url = path;
  return new Koa().createContext(request, new ServerResponse(request));
}

describe('createApiRoutes: every path in one table', () => {
  const ran: string[] = [];
  const routes = createApiRoutes([
    { path: '/api/public/v1/brands/:brand/products/:id', family: 'products', run: async (ctx) => void ran.push(`product ${ctx.params.brand} ${ctx.params.id}`) },
    { path: '/api/public/v1/openapi.json', run: async () => void ran.push('document') },
    { path: '/healthz', run: async () => void ran.push('health') },
  ]);

  it('runs the route of a GET or HEAD with its parameters, pattern and family', async () => {
    ran.length = 0;
    const get = contextFor('GET', '/api/public/v1/brands/acme/products/p1');
    await routes.dispatch(get, async () => void ran.push('next'));
    expect(ran).to.deep.equal(['product acme p1']);
    expect(get.params).to.deep.equal({ brand: 'acme', id: 'p1' });
    expect((get as { _matchedRoute?: string })._matchedRoute).to.equal('/api/public/v1/brands/:brand/products/:id');
    expect(get.state.family).to.equal('products');
    const head = contextFor('HEAD', '/healthz');
    await routes.dispatch(head, async () => void ran.push('next'));
    expect(ran).to.deep.equal(['product acme p1', 'health']);
    expect(head.state.family).to.equal(undefined);
  });

  it('passes other methods and unknown paths on, and knows which paths exist', async () => {
    ran.length = 0;
    await routes.dispatch(contextFor('POST', '/healthz'), async () => void ran.push('next'));
    await routes.dispatch(contextFor('GET', '/api/public/v1/nothing'), async () => void ran.push('next'));
    expect(ran).to.deep.equal(['next', 'next']);
    expect(routes.pathExists('/api/public/v1/openapi.json')).to.equal(true);
    expect(routes.pathExists('/api/public/v1/brands/acme/products')).to.equal(false);
  });

  it('refuses two routes with one pattern at start-up', () => {
    const run = async (): Promise<void> => undefined;
    expect(() => createApiRoutes([{ path: '/healthz', run }, { path: '/healthz', run }])).to.throw('defined twice');
  });
});
