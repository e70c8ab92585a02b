import { expect } from 'chai';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { JsonText } from '../../../src/engine/compile/json-text.ts';
import { toJsonText } from '../../../src/server/middleware/json-body.ts';

function contextWith(body: unknown): Koa.Context {
  const request = new IncomingMessage(new Socket());
  const ctx = new Koa().createContext(request, new ServerResponse(request));
  ctx.body = body;
  return ctx;
}

describe('toJsonText', () => {
  it('turns a JSON body into the exact text Koa would send, marked JSON, its length in UTF-8 bytes', () => {
    const ctx = contextWith({ items: [{ id: 'a', name: 'Café' }], nextCursor: null });
    const text = toJsonText(ctx);
    expect(text).to.equal('{"items":[{"id":"a","name":"Café"}],"nextCursor":null}');
    expect(ctx.body).to.equal(text);
    expect(ctx.response.get('Content-Type')).to.equal('application/json; charset=utf-8');
    // Koa counts the bytes sent, not the characters: é is two.
    expect(ctx.response.length).to.equal(Buffer.byteLength(text!)).and.to.equal(text!.length + 1);
  });

  it('writes a stored JSON value as its text, numbers digit for digit', () => {
    const ctx = contextWith({ items: [{ id: 'a', content: new JsonText('{"n": 9007199254740993, "m": [1.50]}') }] });
    expect(toJsonText(ctx)).to.equal('{"items":[{"id":"a","content":{"n":9007199254740993,"m":[1.50]}}]}');
  });

  it('leaves bytes, text and streams as they are', () => {
    for (const body of [Buffer.from('raw'), 'text', Readable.from(['chunk'])]) {
      const ctx = contextWith(body);
      expect(toJsonText(ctx)).to.equal(null);
      expect(ctx.body).to.equal(body);
    }
  });
});
