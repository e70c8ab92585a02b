import type { Logger } from '../logger.ts';
import { activeTracing, setActiveTracing, TRACE_PROTOCOLS, type TraceProtocol, type Tracing } from './tracing.ts';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Whether the settings ask for traces: an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`),
 * unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. Reads the
 * environment only: nothing is loaded to answer.
 */
export function tracingWanted(env: Environment = process.env): boolean {
  const endpoint = (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim();
  if (endpoint === '') return false;
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true' && env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none';
}

/** The protocol the settings name (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, then `OTEL_EXPORTER_OTLP_PROTOCOL`); a start-up error for one this server has no exporter for. */
export function traceProtocol(env: Environment = process.env): TraceProtocol {
  const named = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  const protocol = TRACE_PROTOCOLS.find((known) => known === named);
  if (!protocol) {
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${named}: traces are exported over OTLP/HTTP only, as ${TRACE_PROTOCOLS.join(' or ')}`);
  }
  return protocol;
}

/**
 * Starts tracing when the settings ask for it (`tracingWanted`), before the
 * app is built: the OpenTelemetry implementation is imported here and only
 * here, so with tracing off no OpenTelemetry module is ever loaded. Returns
 * the tracing now in force, or null. The SDK reads the rest of the
 * standard settings from the process's environment itself.
 */
export async function startTracing({ logger }: { logger: Logger }): Promise<Tracing | null> {
  if (!tracingWanted()) return null;
  const protocol = traceProtocol();
  const { openTelemetryTracing } = await import('./open-telemetry-tracing.ts');
  const tracing = await openTelemetryTracing({ protocol, logger });
  setActiveTracing(tracing);
  return tracing;
}

/** Exports what is left and turns tracing off (graceful stop, tests); nothing when it is off. */
export async function stopTracing(): Promise<void> {
  const tracing = activeTracing();
  if (!tracing) return;
  setActiveTracing(null);
  await tracing.shutdown();
}

/** The log lines' trace fields (pino's `mixin`): the ids of the traced request running now. */
export function traceLogFields(): object {
  return activeTracing()?.logFields() ?? {};
}
