/**
 * The faults of `npm run soak -- --faults`, on a schedule: what, when (seconds
 * from the start of traffic) and for how long. Pure: the run (fault-run.ts)
 * carries it out and records when each fault really began and ended.
 */

/** The faults the soak can inject (issue 25, item 3). A client that hangs up mid-answer runs all along instead. */
export type FaultKind = 'terminate-backends' | 'redis-restart' | 'replica-stop' | 'primary-failover';

export interface ScheduledFault {
  readonly kind: FaultKind;
  /** Seconds after traffic starts. */
  readonly atS: number;
  /**
   * Seconds the fault lasts: Redis or the replica down, the primary dead
   * before the replica is promoted; 0 for a one-off (backends terminated).
   */
  readonly forS: number;
}

/** What each fault does, for the report. */
export const FAULT_DESCRIPTIONS: Readonly<Record<FaultKind, string>> = Object.freeze({
  'terminate-backends': "every session of the server's terminated on the primary and the replica (`pg_terminate_backend`)",
  'redis-restart': 'Redis killed (SIGKILL) and started again on the same port',
  'replica-stop': 'the read replica of `DATABASE_REPLICA_URLS` stopped (`pg_ctl stop -m fast`) and started again',
  'primary-failover': 'the primary killed (`pg_ctl stop -m immediate`), the replica promoted and the address (a TCP proxy) pointed at it',
});

/** The shortest run that fits the schedule with room between faults. */
export const MIN_FAULT_DURATION_S = 90;

/**
 * The default schedule for a run of `durationS` seconds: one of each fault,
 * spread out so each one's recovery is over before the next begins, the
 * failover last (it promotes the replica, which then stops being one).
 */
export function faultSchedule({ durationS }: { durationS: number }): ScheduledFault[] {
  if (durationS < MIN_FAULT_DURATION_S) throw new RangeError(`a fault run needs --duration ${MIN_FAULT_DURATION_S} or more, not ${durationS}`);
  const at = (fraction: number): number => Math.round(durationS * fraction);
  return [
    { kind: 'terminate-backends', atS: at(0.1), forS: 0 },
    { kind: 'redis-restart', atS: at(0.3), forS: 3 },
    { kind: 'replica-stop', atS: at(0.5), forS: 8 },
    { kind: 'primary-failover', atS: at(0.7), forS: 5 },
  ];
}
