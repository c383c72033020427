import { formatBitRate, formatBytes, formatDuration, formatRate } from './format';

describe('formats', () => {
  it('formats durations: seconds under a minute, then minutes and seconds', () => {
    expect(formatDuration(5.125)).toBe('5.13 s');
    expect(formatDuration(42.44)).toBe('42.4 s');
    expect(formatDuration(65)).toBe('1m 05s');
    expect(formatDuration(3725)).toBe('1h 2m 05s');
    expect(formatDuration(Number.NaN)).toBe('N/A');
  });

  it('formats sizes in MB with 2 decimals, GB above 1 GiB', () => {
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.00 MB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.00 GB');
    expect(formatBytes(512)).toBe('512 bytes');
  });

  it('formats rates', () => {
    expect(formatBitRate(1_234_567)).toBe('1.23 Mb/s');
    expect(formatBitRate(128_000)).toBe('128 kb/s');
    expect(formatRate(29.97002997, 'fps')).toBe('29.97 fps');
    expect(formatRate(48000, 'Hz')).toBe('48000 Hz');
  });
});
