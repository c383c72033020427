import { decideRange, etagMatches } from './http-range';

describe('decideRange', () => {
  it('serves the whole object without a Range header or with another unit', () => {
    expect(decideRange(undefined, 100)).toEqual({ kind: 'full' });
    expect(decideRange('items=0-5', 100)).toEqual({ kind: 'full' });
  });

  it('serves one closed, open-ended or suffix range, clamped to the object', () => {
    expect(decideRange('bytes=0-9', 100)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(decideRange('bytes=90-', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(decideRange('bytes=90-500', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(decideRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(decideRange('bytes=-500', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
  });

  it('refuses many or overlapping ranges instead of amplifying them', () => {
    expect(decideRange('bytes=0-1,0-1,0-1', 100).kind).toBe('unsatisfiable');
    expect(decideRange('bytes=0-50, 25-75', 100).kind).toBe('unsatisfiable');
  });

  it('refuses malformed and unsatisfiable ranges with a reason', () => {
    for (const h of ['bytes=abc', 'bytes=-', 'bytes=100-', 'bytes=5-2', 'bytes=-0']) {
      const d = decideRange(h, 100);
      expect(d.kind).toBe('unsatisfiable');
      if (d.kind === 'unsatisfiable') expect(d.reason.length).toBeGreaterThan(5);
    }
  });
});

describe('etagMatches', () => {
  it('compares weakly and honours *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"x"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });
});
