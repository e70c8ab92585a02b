import { expect } from 'chai';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { JsonText } from '../../../src/engine/compile/json-text.ts';
import { toJsonBytes } from '../../../src/server/middleware/json-body.ts';

function contextWith(body: unknown): Koa.Context {
  const request = new IncomingMessage(new Socket());
  const ctx = new Koa().createContext(request, new ServerResponse(request));
  ctx.body = body;
  return ctx;
}

describe('toJsonBytes', () => {
  it('turns a JSON body into the exact bytes Koa would send, marked JSON', () => {
    const ctx = contextWith({ items: [{ id: 'a', name: 'Café' }], nextCursor: null });
    const bytes = toJsonBytes(ctx);
    expect(bytes!.toString('utf8')).to.equal('{"items":[{"id":"a","name":"Café"}],"nextCursor":null}');
    expect(ctx.body).to.equal(bytes);
    expect(ctx.response.get('Content-Type')).to.equal('application/json; charset=utf-8');
  });

  it('writes a stored JSON value as its text, numbers digit for digit', () => {
    const ctx = contextWith({ items: [{ id: 'a', content: new JsonText('{"n": 9007199254740993, "m": [1.50]}') }] });
    expect(toJsonBytes(ctx)!.toString('utf8')).to.equal('{"items":[{"id":"a","content":{"n":9007199254740993,"m":[1.50]}}]}');
  });

  it('leaves bytes, text and streams as they are', () => {
    for (const body of [Buffer.from('raw'), 'text', Readable.from(['chunk'])]) {
      const ctx = contextWith(body);
      expect(toJsonBytes(ctx)).to.equal(null);
      expect(ctx.body).to.equal(body);
    }
  });
});
