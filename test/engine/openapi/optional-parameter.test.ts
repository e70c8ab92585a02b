import { expect } from 'chai';
import { NOT_SENT_EXAMPLE, optionalParameter } from '../../../src/engine/openapi/optional-parameter.ts';

describe('optionalParameter', () => {
  it('is an optional query parameter, described, its schema without the description', () => {
    const parameter = optionalParameter({ name: 'cursor', schema: { type: 'string', description: 'From nextCursor.' } });
    expect(parameter).to.deep.equal({ name: 'cursor', in: 'query', required: false, description: 'From nextCursor.', schema: { type: 'string' } });
  });

  for (const keyword of ['default', 'enum', 'examples', 'example'] as const) {
    it(`starts empty in "try it" when its schema has \`${keyword}\`, which a renderer would fill the input from`, () => {
      const value = keyword === 'enum' || keyword === 'examples' ? ['a'] : 'a';
      const parameter = optionalParameter({ name: 'x', schema: { type: 'string', [keyword]: value } });
      // The first example, which renderers pick, has no value: nothing is filled in, so nothing is sent.
      expect(Object.keys(parameter.examples as object)).to.deep.equal(['default']);
      expect(parameter.examples).to.deep.equal({ default: NOT_SENT_EXAMPLE });
      expect(NOT_SENT_EXAMPLE).to.not.have.property('value');
      expect(parameter.schema, 'the schema keeps what it says').to.have.property(keyword);
    });
  }

  it('keeps a real example one choice away, second in the map', () => {
    const parameter = optionalParameter({
      name: 'fields',
      schema: { type: 'string' },
      description: 'Fields to return.',
      example: { name: 'some', summary: 'Only id,code', value: 'id,code' },
    });
    expect(parameter.description).to.equal('Fields to return.');
    expect(parameter).to.not.have.property('example');
    expect(parameter.examples).to.deep.equal({ default: NOT_SENT_EXAMPLE, some: { summary: 'Only id,code', value: 'id,code' } });
  });
});
