import { clock, lengthText } from './format';
import { selectionAfterLoad } from './selection';

describe('selectionAfterLoad', () => {
  it('selects the first moment when moments load, keeps a listed one, drops a gone one', () => {
    const list = [{ id: 'a' }, { id: 'b' }];
    expect(selectionAfterLoad(null, list)).toBe('a');
    expect(selectionAfterLoad('b', list)).toBe('b');
    expect(selectionAfterLoad('z', list)).toBe('a');
    expect(selectionAfterLoad('a', [])).toBeNull();
  });
});

describe('format', () => {
  it('writes times as m:ss and lengths in seconds or minutes', () => {
    expect(clock(65.4)).toBe('1:05');
    expect(clock(3725)).toBe('1:02:05');
    expect(lengthText(17.489)).toBe('17s');
    expect(lengthText(65)).toBe('1m 05s');
  });
});
