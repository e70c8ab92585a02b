import { expect } from 'chai';
import { JsonText, stringifyExact } from '../../../src/engine/compile/json-text.ts';

describe('JsonText', () => {
  it('is written by stringifyExact as its text, numbers digit for digit, wherever it sits in the body', () => {
    const huge = `1${'0'.repeat(400)}`;
    const body = {
      items: [
        { id: 'a', content: new JsonText(`{"big": 9007199254740993, "scale": 1.50, "huge": ${huge}, "tiny": 0.00001}`) },
        { id: 'b', content: new JsonText('[1, -0.0, "x"]') },
        { id: 'c', content: new JsonText('2.500') },
        { id: 'd', content: null },
      ],
      totalItems: 4,
    };
    expect(stringifyExact(body)).to.equal(
      `{"items":[{"id":"a","content":{"big":9007199254740993,"scale":1.50,"huge":${huge},"tiny":0.00001}},`
      + '{"id":"b","content":[1,-0.0,"x"]},{"id":"c","content":2.500},{"id":"d","content":null}],"totalItems":4}',
    );
  });

  it('keeps strings whole: spaces, quotes, escapes and text that looks like its own mark', () => {
    const text = '{"a b": "x , y", "q": "say \\"hi\\": ok", "nl": "1\\n2", "u": "\\u00e9\\\\u0000json:", "e": "é"}';
    const out = stringifyExact({ content: new JsonText(text), note: '\\u0000json:{"not": "spliced"}' });
    expect(out).to.equal(
      '{"content":{"a b":"x , y","q":"say \\"hi\\": ok","nl":"1\\n2","u":"\\u00e9\\\\u0000json:","e":"é"},"note":"\\\\u0000json:{\\"not\\": \\"spliced\\"}"}',
    );
    expect(JSON.parse(out)).to.deep.equal({ content: JSON.parse(text), note: '\\u0000json:{"not": "spliced"}' });
  });

  it('is the parsed value to anything else that serialises it, and leaves no mark behind', () => {
    const value = new JsonText('{"n": 1.50, "list": [1, 2]}');
    expect(JSON.stringify({ value })).to.equal('{"value":{"n":1.5,"list":[1,2]}}');
    expect(stringifyExact({ value })).to.equal('{"value":{"n":1.50,"list":[1,2]}}');
    expect(JSON.stringify({ value })).to.equal('{"value":{"n":1.5,"list":[1,2]}}');
  });

  it('writes a body without stored JSON exactly as JSON.stringify does', () => {
    const body = { items: [{ id: 'a', name: 'Café', n: 1.5, when: '2026-03-01T09:30:00.000Z' }], nextCursor: null };
    expect(stringifyExact(body)).to.equal(JSON.stringify(body));
  });
});
