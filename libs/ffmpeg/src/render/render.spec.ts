import { ascendingRuns } from './commands';

describe('a full re-encode reads its ranges in runs of source order', () => {
  it('splits where a range starts before the previous one ends: one input per run', () => {
    const r = (start: number, end: number) => ({ start, end });
    expect(ascendingRuns([r(0, 10), r(20, 30), r(40, 50)])).toEqual([[r(0, 10), r(20, 30), r(40, 50)]]);
    expect(ascendingRuns([r(210, 271), r(13, 75), r(113, 180)])).toEqual([[r(210, 271)], [r(13, 75), r(113, 180)]]);
    // a reorder of blocks with cuts inside them: runs are the blocks, not the ranges
    const blocks = [[r(300, 310), r(320, 330)], [r(0, 10), r(15, 20), r(25, 30)], [r(11, 14)]];
    expect(ascendingRuns(blocks.flat())).toEqual(blocks);
  });
});
