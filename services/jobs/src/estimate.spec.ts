import { MAX_SAMPLES, typicalSeconds } from './estimate';

const s = (sec: number, sizeSec: number | null = 60) => ({ sec, sizeSec });

describe('typicalSeconds (honest job times)', () => {
  it('is the median of recent jobs on media of about the same length', () => {
    expect(typicalSeconds([s(7), s(9), s(6), s(300, 3600)], 60)).toEqual({ typicalSec: 7, basedOn: 3 });
    expect(typicalSeconds([s(4), s(6), s(8), s(10)], 50)).toEqual({ typicalSec: 7, basedOn: 4 });
  });

  it('says nothing with fewer than three comparable jobs', () => {
    expect(typicalSeconds([s(7), s(9), s(300, 3600)], 60)).toEqual({ typicalSec: null, basedOn: 2 });
    expect(typicalSeconds([], null)).toEqual({ typicalSec: null, basedOn: 0 });
  });

  it('counts only the newest ones, and any size when the size is unknown', () => {
    const old = Array.from({ length: 30 }, () => s(100));
    expect(typicalSeconds([...Array.from({ length: MAX_SAMPLES }, () => s(5)), ...old], 60).typicalSec).toBe(5);
    expect(typicalSeconds([s(1, null), s(2, 9999), s(3)], null)).toEqual({ typicalSec: 2, basedOn: 3 });
    expect(typicalSeconds([s(-1), s(Number.NaN), s(3)], 60)).toEqual({ typicalSec: null, basedOn: 1 });
  });
});
