/** A rich-text note body as the editor stores it: the plain text, and one paragraph node per paragraph. */
export function noteContent(...paragraphs: string[]): Record<string, unknown> {
  return {
    type: 'doc',
    text: paragraphs.join('\n\n'),
    content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  };
}
