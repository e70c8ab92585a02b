import type { FaultServices } from './fault-services.ts';
import type { ScheduledFault } from './fault-schedule.ts';
import type { FaultWindow } from './fault-verdict.ts';
import type { FaultWriter } from './fault-writer.ts';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Carries out one fault and lifts it after `forS`; returns when it really
 * began and ended. The failover first holds the writer until the replica has
 * everything the primary committed: replication is asynchronous, so what a
 * primary killed at once had not sent is lost to Postgres itself, and the
 * follower, which may have read it from the primary, would keep rows no
 * database has. With the writer held, the comparison at the end checks the
 * service, not the replication mode.
 */
export async function injectFault({ fault, services, writer, now, log }: {
  fault: ScheduledFault;
  services: FaultServices;
  writer: FaultWriter;
  now: () => number;
  log: (line: string) => void;
}): Promise<FaultWindow> {
  const forMs = fault.forS * 1000;
  if (fault.kind === 'primary-failover') {
    await writer.pause();
    await services.replicaCaughtUp();
    writer.resume();
  }
  const startMs = now();
  switch (fault.kind) {
    case 'terminate-backends':
      log(`soak: fault: terminated ${await services.terminateServerSessions()} sessions of the server`);
      break;
    case 'redis-restart':
      await services.redis.kill();
      await pause(forMs);
      await services.redis.start();
      break;
    case 'replica-stop':
      await services.replica.stop({ mode: 'fast' });
      await pause(forMs);
      await services.replica.start();
      break;
    case 'primary-failover':
      await services.primary.stop({ mode: 'immediate' });
      await pause(forMs);
      await services.replica.promote();
      services.proxy.retarget(services.replica.port);
      services.proxy.dropAll();
      break;
  }
  const endMs = now();
  log(`soak: fault ${fault.kind} from ${(startMs / 1000).toFixed(1)} s to ${(endMs / 1000).toFixed(1)} s`);
  return { kind: fault.kind, startMs, endMs };
}
