import { expect } from 'chai';
import { groupCases, planRuns, sidesInTurn } from '../../../bench/measure/plan-runs.ts';

const describeRuns = (runs: ReturnType<typeof planRuns>): string[] => runs.map((run) => `${run.on} ${run.case} ${run.seconds}${run.warmUp ? ' warm' : ''}`);

describe('planRuns', () => {
  it('splits each side\'s time in halves run A B B A, each side warming up before its first run', () => {
    expect(describeRuns(planRuns({ durationSeconds: 10, sides: ['floor', 'server'], cases: ['search'] }))).to.deep.equal([
      'floor search 5 warm', 'server search 5 warm', 'server search 5', 'floor search 5',
    ]);
    expect(describeRuns(planRuns({ durationSeconds: 3, sides: ['server', 'floor'], cases: ['search'] }))).to.deep.equal([
      'server search 2 warm', 'floor search 2 warm', 'floor search 1', 'server search 1',
    ]);
  });

  it('interleaves cases measured together, mirrored on both sides and for both cases', () => {
    const runs = planRuns({ durationSeconds: 10, sides: ['server', 'floor'], cases: ['page-2', 'page-2000'] });
    expect(describeRuns(runs)).to.deep.equal([
      'server page-2 5 warm', 'server page-2000 5 warm', 'floor page-2 5 warm', 'floor page-2000 5 warm',
      'floor page-2000 5', 'floor page-2 5', 'server page-2000 5', 'server page-2 5',
    ]);
    // Every case on every side sits, on average, in the middle of the sequence.
    for (const on of ['server', 'floor']) {
      for (const name of ['page-2', 'page-2000']) {
        const at = runs.flatMap((run, i) => (run.on === on && run.case === name ? [i] : []));
        expect(at.reduce((sum, i) => sum + i, 0) / at.length, `${on} ${name}`).to.equal(3.5);
      }
    }
  });

  it('runs a one-second group once on each side, the cases of a side next to each other', () => {
    expect(describeRuns(planRuns({ durationSeconds: 1, sides: ['floor', 'server'], cases: ['page-2', 'page-2000'] }))).to.deep.equal([
      'floor page-2 1 warm', 'floor page-2000 1 warm', 'server page-2000 1 warm', 'server page-2 1 warm',
    ]);
  });
});

describe('planRuns with three sides', () => {
  it('runs the sides A B C C B A, and a one-second group once on each side, alternating the cases', () => {
    expect(describeRuns(planRuns({ durationSeconds: 4, sides: ['preparedFloor', 'server', 'floor'], cases: ['get-by-id'] }))).to.deep.equal([
      'preparedFloor get-by-id 2 warm', 'server get-by-id 2 warm', 'floor get-by-id 2 warm',
      'floor get-by-id 2', 'server get-by-id 2', 'preparedFloor get-by-id 2',
    ]);
    expect(describeRuns(planRuns({ durationSeconds: 1, sides: ['server', 'floor', 'preparedFloor'], cases: ['page-2', 'page-2000'] }))).to.deep.equal([
      'server page-2 1 warm', 'server page-2000 1 warm', 'floor page-2000 1 warm', 'floor page-2 1 warm',
      'preparedFloor page-2 1 warm', 'preparedFloor page-2000 1 warm',
    ]);
  });
});

describe('sidesInTurn', () => {
  it('rotates the sides from one group to the next', () => {
    expect([0, 1, 2, 3].map((i) => sidesInTurn(['server', 'floor', 'preparedFloor'], i).join(' '))).to.deep.equal([
      'server floor preparedFloor', 'floor preparedFloor server', 'preparedFloor server floor', 'server floor preparedFloor',
    ]);
  });
});

describe('groupCases', () => {
  it('measures page 2 and the deep pages together, the two first pages of the big brand together, the two gets together, and every other case alone', () => {
    expect(groupCases(['get-by-id', 'page-2', 'page-2000', 'search'])).to.deep.equal([['get-by-id'], ['page-2', 'page-2000'], ['search']]);
    expect(groupCases(['get-by-id', 'get-by-id-restricted', 'search'])).to.deep.equal([['get-by-id', 'get-by-id-restricted'], ['search']]);
    expect(groupCases(['page-2000', 'include'])).to.deep.equal([['page-2000'], ['include']]);
    expect(groupCases(['page-2', 'page-2000', 'newest-page-2000', 'first-page-big', 'newest-first-page', 'code-page-2000'])).to.deep.equal([
      ['page-2', 'page-2000', 'newest-page-2000'], ['first-page-big', 'newest-first-page'], ['code-page-2000'],
    ]);
  });
});
