import { expect } from 'chai';
import { resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';

describe('operations: metrics', () => {
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('/metrics exposes Prometheus text: requests by route pattern and status, durations, process metrics', async () => {
    await server.request('/brands/acme/carton-sizes', { key });
    await server.request('/brands/acme/carton-sizes', { key: null });
    const response = await server.request(`${server.origin}/metrics`, { key: null });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    const text = response.text;
    expect(text).to.match(/bcat_http_requests_total\{method="GET",route="\/api\/public\/v1\/brands\/:brand\/carton-sizes",status="200"\} 1/);
    expect(text).to.match(/bcat_http_requests_total\{method="GET",route="\/api\/public\/v1\/brands\/:brand\/carton-sizes",status="401"\} 1/);
    expect(text).to.contain('bcat_http_request_duration_seconds_bucket');
    expect(text).to.contain('bcat_process_resident_memory_bytes');
    // Never a brand slug or a key in a label.
    expect(text).not.to.contain('acme');
    expect(text).not.to.contain('bcat_sk_');
  });

});
