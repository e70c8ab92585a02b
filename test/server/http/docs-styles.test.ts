import { expect } from 'chai';
import { DOCS_CSS } from '../../../src/server/http/docs-styles.ts';

describe('the docs site\'s stylesheet (docs-styles.ts)', () => {
  it('styles the header bar and tells Scalar its height', () => {
    expect(DOCS_CSS).to.contain('.docs-bar');
    expect(DOCS_CSS).to.contain('--scalar-custom-header-height');
  });

  it('loads nothing from elsewhere: no URL, no import, system fonts only', () => {
    expect(DOCS_CSS).to.not.match(/https?:\/\/|url\(|@import|@font-face/);
    expect(DOCS_CSS).to.match(/font: [^;]*system-ui/);
  });

  it('has as many closing braces as opening ones', () => {
    expect(DOCS_CSS.split('{').length).to.equal(DOCS_CSS.split('}').length);
  });
});
