import { parseContentRange, rangeHeader } from './uploads';

describe('parseContentRange', () => {
  it('reads a chunk range with a known or unknown total', () => {
    expect(parseContentRange('bytes 0-262143/1000000')).toEqual({ kind: 'bytes', first: 0, last: 262143, total: 1000000 });
    expect(parseContentRange('bytes 5-9/*')).toEqual({ kind: 'bytes', first: 5, last: 9, total: null });
  });
  it('reads a status query', () => {
    expect(parseContentRange('bytes */1000000')).toEqual({ kind: 'query', total: 1000000 });
    expect(parseContentRange('bytes */*')).toEqual({ kind: 'query', total: null });
    expect(parseContentRange('bytes */0')).toEqual({ kind: 'query', total: 0 });
  });
  it('refuses malformed and impossible ranges', () => {
    for (const h of [undefined, '', 'bytes=0-9/10', 'bytes 9-0/10', 'bytes 0-10/10', 'items 0-1/2', 'bytes 0-/10', 'bytes -5/10']) {
      expect([h, parseContentRange(h)]).toEqual([h, null]);
    }
  });
});

describe('rangeHeader', () => {
  it("is 'bytes=0-<last stored byte>', and absent when nothing is stored", () => {
    expect(rangeHeader(1024)).toEqual({ range: 'bytes=0-1023' });
    expect(rangeHeader(1)).toEqual({ range: 'bytes=0-0' });
    expect(rangeHeader(0)).toEqual({});
  });
});
