import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { startTracing, stopTracing, traceLogFields, traceProtocol, tracingWanted } from '../../../src/server/tracing/start-tracing.ts';
import { activeTracing } from '../../../src/server/tracing/tracing.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { startOtlpReceiver } from '../../support/otlp-receiver.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';
import { REPO_ROOT } from '../../support/server-process.ts';

const run = promisify(execFile);

/** The process's environment without any OTEL_* setting, plus `settings`. */
function environment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_'));
  return { ...Object.fromEntries(kept), ...settings };
}

// Touches no database (the probe's is never reached): run once, in the embedded run.
describeDatabaseFree?.('startTracing: on only when an OTLP endpoint is set', function () {
  this.timeout(60_000);

  it('wants traces for an endpoint (all signals or traces only), unless the SDK or the traces exporter is turned off', () => {
    expect(tracingWanted({})).to.equal(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'api', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_SAMPLER: 'always_on' })).to.equal(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).to.equal(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.equal(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).to.equal(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' })).to.equal(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).to.equal(false);
  });

  it('exports in protobuf unless told JSON, the traces setting first, and refuses a protocol it has no exporter for', () => {
    expect(traceProtocol({})).to.equal('http/protobuf');
    expect(traceProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).to.equal('http/json');
    expect(traceProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).to.equal('http/protobuf');
    expect(() => traceProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).to.throw(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc: .*http\/protobuf or http\/json/);
  });

  it('starts nothing, and the log lines get no field, without an endpoint', async () => {
    const saved = { ...process.env };
    for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
    try {
      expect(await startTracing({ logger: collectingLogger().logger })).to.equal(null);
    } finally {
      Object.assign(process.env, saved);
    }
    expect(activeTracing()).to.equal(null);
    expect(traceLogFields()).to.deep.equal({});
    await stopTracing();
  });

  it('loads no OpenTelemetry SDK or exporter module in a process that serves without an endpoint, and all of them with one', async () => {
    const probe = async (settings: Record<string, string>) => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/support/loaded-telemetry.ts'], { cwd: REPO_ROOT, env: environment(settings) });
      return JSON.parse(stdout.trim().split('\n').at(-1)!) as { tracing: boolean; statuses: number[]; loaded: string[] };
    };
    const off = await probe({ OTEL_SERVICE_NAME: 'api', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(off).to.deep.equal({ tracing: false, statuses: [200, 401], loaded: [] });
    // The same look finds them when tracing is on; in the default protocol, protobuf, the two requests' spans reach the receiver at the stop.
    const receiver = await startOtlpReceiver();
    try {
      const on = await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'probe-service' });
      expect(on.tracing).to.equal(true);
      expect(on.statuses).to.deep.equal([200, 401]);
      for (const name of ['sdk-trace-base', 'exporter-trace-otlp-proto', 'context-async-hooks']) {
        expect(on.loaded.some((path) => path.includes(`@opentelemetry/${name}/`)), name).to.equal(true);
      }
      const exported = Buffer.concat(receiver.protobufBodies).toString('latin1');
      expect(exported).to.include('probe-service').and.include('/api/public/v1/brands/:brand/products/:id');
    } finally {
      await receiver.close();
    }
  });
});
