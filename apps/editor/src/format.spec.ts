import { formatDuration } from './format';

describe('formats', () => {
  it('formats durations: seconds under a minute, then minutes and seconds', () => {
    expect(formatDuration(5.125)).toBe('5.13 s');
    expect(formatDuration(42.44)).toBe('42.4 s');
    expect(formatDuration(65)).toBe('1m 05s');
    expect(formatDuration(3725)).toBe('1h 2m 05s');
    expect(formatDuration(Number.NaN)).toBe('N/A');
  });
});
