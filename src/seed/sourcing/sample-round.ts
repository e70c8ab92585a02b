import { OUTERWEAR_REVIEW_CHECKPOINTS, TOPS_REVIEW_CHECKPOINTS } from '../reference-data/checklists.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import type { SampleKey } from './sourcing-requests.ts';

/**
 * A round of a sample: sent by the factory, received and reviewed against its
 * checklist, each checkpoint passed or failed with a comment.
 */

type ReviewChecklist = 'topsReview' | 'outerwearReview';

const CHECKPOINTS: Readonly<Record<ReviewChecklist, readonly string[]>> = {
  topsReview: TOPS_REVIEW_CHECKPOINTS,
  outerwearReview: OUTERWEAR_REVIEW_CHECKPOINTS,
};

export interface SampleRoundPlan {
  /** When the review is booked. */
  readonly at: string;
  readonly sample: SampleKey;
  readonly checklist: ReviewChecklist;
  readonly roundNumber: number;
  readonly sentAt: string;
  readonly receivedAt: string;
  readonly decision: 'approved' | 'rejected';
  readonly comments: string;
  /** The checkpoints that failed, by their index in the checklist, with the reviewer's comment; the rest pass. */
  readonly failures: Readonly<Record<number, string>>;
}

export const SAMPLE_ROUNDS: Readonly<Record<'teeFirst' | 'jacketFirst' | 'teeSecond' | 'jacketSecond', SampleRoundPlan>> = {
  teeFirst: {
    at: '2026-02-05T11:00:00.000Z', sample: 'teeProto', checklist: 'topsReview', roundNumber: 1,
    sentAt: '2026-02-02T16:00:00.000Z', receivedAt: '2026-02-05T10:30:00.000Z',
    decision: 'rejected', comments: 'Neck rib too tight, fails stretch recovery; body length 1.5 cm short in M.',
    failures: { 0: 'Body length M 69.5 cm against 71 cm spec.', 2: 'Neckband does not recover after 10 s stretch.' },
  },
  jacketFirst: {
    at: '2026-02-13T12:00:00.000Z', sample: 'jacketFit', checklist: 'outerwearReview', roundNumber: 1,
    sentAt: '2026-02-06T08:00:00.000Z', receivedAt: '2026-02-13T10:15:00.000Z',
    decision: 'rejected', comments: 'Seam taping failed wash test; resample.',
    failures: { 1: 'Tape lifting at the shoulder seams after the third wash.' },
  },
  teeSecond: {
    at: '2026-02-16T10:30:00.000Z', sample: 'teeProto', checklist: 'topsReview', roundNumber: 2,
    sentAt: '2026-02-12T15:00:00.000Z', receivedAt: '2026-02-16T09:45:00.000Z',
    decision: 'approved', comments: 'All points within tolerance. Approved for bulk on 180 gsm jersey.',
    failures: {},
  },
  jacketSecond: {
    at: '2026-03-03T11:00:00.000Z', sample: 'jacketFit', checklist: 'outerwearReview', roundNumber: 2,
    sentAt: '2026-02-24T07:30:00.000Z', receivedAt: '2026-03-03T09:20:00.000Z',
    decision: 'approved', comments: '3-layer tape holds after 5 washes. Approved for bulk.',
    failures: {},
  },
};

/** One result per checkpoint of the round's checklist, in the checklist's order. */
export function checklistResults(plan: Pick<SampleRoundPlan, 'checklist' | 'failures'>): { checkpoint: string; result: 'pass' | 'fail'; comment: string | null }[] {
  return CHECKPOINTS[plan.checklist].map((checkpoint, i) => {
    const failure = Object.hasOwn(plan.failures, i) ? plan.failures[i]! : null;
    return { checkpoint, result: failure === null ? 'pass' : 'fail', comment: failure };
  });
}

export async function seedSampleRound({ put, clock, brandId, reference, samples, plan }: SeedContext & {
  reference: ReferenceIds;
  samples: Record<SampleKey, string>;
  plan: SampleRoundPlan;
}): Promise<void> {
  clock.jumpTo(plan.at);
  const { sample, roundNumber, sentAt, receivedAt, decision, comments } = plan;
  const [round] = await put('sample-rounds', brandId, [{ sampleId: samples[sample], roundNumber, status: 'reviewed', sentAt, receivedAt, decision, comments }]);
  const checklistId = reference.checklists[plan.checklist];
  await put('sample-checklist-results', brandId, checklistResults(plan).map(({ checkpoint, result, comment }) => ({
    sampleRoundId: round!.id, checklistId, checkpoint, result, comment,
  })));
}
