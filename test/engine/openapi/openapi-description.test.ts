import { expect } from 'chai';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../../src/engine/compile/schemas.ts';
import { API_DESCRIPTION } from '../../../src/engine/openapi/openapi-description.ts';
import { ERROR_CODES } from '../../../src/engine/request/api-error.ts';
import { buildApiDocument } from '../../../src/server/http/api-document.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';

describe('the API description', () => {
  it('names every error code and the page sizes the schemas use', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(API_DESCRIPTION, code).to.contain(`\`${code}\``);
    expect(API_DESCRIPTION).to.contain(`default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}`);
  });

  it('covers what every operation shares: keys, lists, errors, sync, conditional requests, rate limits, request ids', () => {
    for (const topic of ['Keys', 'Lists', 'Filters', 'Records', 'Errors', 'Keeping a copy in sync', 'Conditional requests', 'Rate limits', 'Request ids']) {
      expect(API_DESCRIPTION, topic).to.contain(`**${topic}`);
    }
    expect(API_DESCRIPTION).to.contain('Authorization: Bearer <key>');
    expect(API_DESCRIPTION).to.contain('(/api/public/v1/docs/getting-started)');
    expect(API_DESCRIPTION).to.contain('(/api/public/v1/docs/syncing)');
  });

  it('is the info.description of the served document', async () => {
    const document = buildApiDocument(await loadRegistry()) as { info: { description: string } };
    expect(document.info.description).to.equal(API_DESCRIPTION);
  });
});
