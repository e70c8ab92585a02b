import { expect } from 'chai';
import { noteContent } from '../../../src/seed/documents/note-content.ts';

describe('a note\'s content', () => {
  it('holds the plain text, paragraphs a blank line apart, and one paragraph node per paragraph', () => {
    expect(noteContent('First.', 'Second.')).to.deep.equal({
      type: 'doc',
      text: 'First.\n\nSecond.',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'First.' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Second.' }] },
      ],
    });
  });
});
