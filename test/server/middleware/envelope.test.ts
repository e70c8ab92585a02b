import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { type TestResponse } from '../../support/test-server.ts';
import { useServer } from '../../support/use-server.ts';

/** What every answer gets, from the outermost middleware: an id and security headers first, then the metrics and the log with the final status. */
describe('envelope', () => {
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    let brand: { id: string };
    ({ brand, key } = await resetToBrand());
    await insert('notes', brand.id, [{ entityType: 'product', entityId: randomUUID(), content: { text: 'hi' } }]);
  });

  /** A request whose handler throws something unexpected: the notes table is renamed while it runs. */
  async function failing(): Promise<TestResponse> {
    const { db } = await testDatabase();
    await db.raw('alter table notes rename to notes_gone');
    try {
      return await server.request('/brands/acme/notes', { key });
    } finally {
      await db.raw('alter table notes_gone rename to notes');
    }
  }

  it('gives every answer, errors included, a request id and the security headers, and logs it once with its final status', async () => {
    const answers = [
      await server.request('/brands/acme/carton-sizes', { key }),
      await server.request('/brands/acme/carton-sizes', { key: null }),
      await server.request('/brands/acme/carton-sizes?limit=0', { key }),
      await failing(),
    ];
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 401, 400, 500]);
    for (const answer of answers) {
      const requestId = answer.headers.get('x-request-id');
      expect(requestId, String(answer.status)).to.be.a('string').and.not.equal('');
      expect(answer.headers.get('x-content-type-options'), String(answer.status)).to.equal('nosniff');
      const logged = server.logs.filter((line) => line.msg === 'request' && line.requestId === requestId);
      expect(logged.map((line) => line.status), String(answer.status)).to.deep.equal([answer.status]);
    }
  });

  it('counts each answer in the metrics under its final status, a thrown error as the status it was answered with', async () => {
    const route = (family: string): string => `route="/api/public/v1/brands/:brand/${family}"`;
    const counted = (text: string, family: string, status: number): number => {
      const match = new RegExp(`^bcat_http_requests_total\\{method="GET",${route(family).replace(/[/.]/g, '\\$&')},status="${status}"\\} (\\d+)$`, 'm').exec(text);
      return match ? Number(match[1]) : 0;
    };
    const before = (await server.request(`${server.origin}/metrics`)).text;
    await server.request('/brands/acme/carton-sizes', { key: null });
    await server.request('/brands/acme/carton-sizes', { key: null });
    await failing();
    const after = (await server.request(`${server.origin}/metrics`)).text;
    expect(counted(after, 'carton-sizes', 401) - counted(before, 'carton-sizes', 401)).to.equal(2);
    expect(counted(after, 'notes', 500) - counted(before, 'notes', 500)).to.equal(1);
  });
});
