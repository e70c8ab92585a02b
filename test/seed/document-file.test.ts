import { expect } from 'chai';
import { documentFile, FILES_BASE_URL } from '../../src/seed/document-file.ts';

describe('documentFile', () => {
  const file = {
    documentTypeId: 'type-1', entityType: 'packing_list', entityId: 'pl-1',
    name: 'Packing list PL-1', fileName: 'PL-1.pdf', sizeBytes: 1024, uploadedByUserId: 'user-1',
  };

  it('is a PDF filed under the record it is attached to', () => {
    expect(documentFile(file)).to.deep.equal({
      ...file,
      mimeType: 'application/pdf',
      url: `${FILES_BASE_URL}/documents/packing_list/pl-1/PL-1.pdf`,
    });
  });

  it('carries an id only when given one (put gives the rest theirs)', () => {
    expect(documentFile(file)).to.not.have.property('id');
    expect(documentFile({ ...file, id: 'doc-1' })).to.include({ id: 'doc-1' });
  });
});
