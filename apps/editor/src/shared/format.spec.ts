import { formatDuration, formatTimestamp } from './format';

describe('formats', () => {
  it('formats durations: seconds under a minute, then minutes and seconds', () => {
    expect(formatDuration(5.125)).toBe('5.13 s');
    expect(formatDuration(42.44)).toBe('42.4 s');
    expect(formatDuration(65)).toBe('1m 05s');
    expect(formatDuration(3725)).toBe('1h 2m 05s');
    expect(formatDuration(Number.NaN)).toBe('N/A');
  });

  it('formats timestamps: m:ss, h:mm:ss from an hour', () => {
    expect(formatTimestamp(0)).toBe('0:00');
    expect(formatTimestamp(7.9)).toBe('0:07');
    expect(formatTimestamp(65)).toBe('1:05');
    expect(formatTimestamp(3725)).toBe('1:02:05');
    expect(formatTimestamp(Number.NaN)).toBe('0:00');
  });
});
