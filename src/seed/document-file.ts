import type { RecordInput } from '../db/insert-records.ts';

/**
 * Files attached to records. Groups whose records point at a file (a packing
 * list's PDF, a payment's bank confirmation) write it with `documentFile`
 * just before the record; the other attachments are the documents group's.
 */

/** Where the demo's files and images live. */
export const FILES_BASE_URL = 'https://files.northwind.example';

/** A document record: a PDF attached to one record. */
export function documentFile({ documentTypeId, entityType, entityId, name, fileName, sizeBytes, uploadedByUserId, id }: {
  documentTypeId: string;
  entityType: string;
  entityId: string;
  name: string;
  fileName: string;
  sizeBytes: number;
  uploadedByUserId: string;
  id?: string;
}): RecordInput {
  return {
    ...(id ? { id } : {}),
    documentTypeId,
    entityType,
    entityId,
    name,
    fileName,
    mimeType: 'application/pdf',
    sizeBytes,
    url: `${FILES_BASE_URL}/documents/${entityType}/${entityId}/${fileName}`,
    uploadedByUserId,
  };
}
