import { formatDate, formatDuration, formatFileSize, formatUser, plural } from './format';

describe('dashboard formats', () => {
  it('shows durations as m:ss, N/A when unknown', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(5.9)).toBe('0:05');
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3600)).toBe('60:00');
    expect(formatDuration(null)).toBe('N/A');
    expect(formatDuration(undefined)).toBe('N/A');
    expect(formatDuration(Number.NaN)).toBe('N/A');
  });

  it('shows sizes in MB with 2 decimals, in GB above 1 GiB, N/A when unknown', () => {
    expect(formatFileSize(0)).toBe('0.00 MB');
    expect(formatFileSize(1536 * 1024)).toBe('1.50 MB');
    expect(formatFileSize(1024 ** 3)).toBe('1024.00 MB');
    expect(formatFileSize(1024 ** 3 + 1)).toBe('1.00 GB');
    expect(formatFileSize(2.5 * 1024 ** 3)).toBe('2.50 GB');
    expect(formatFileSize(null)).toBe('N/A');
  });

  it("shows a missing owner as 'Unknown'", () => {
    expect(formatUser(null)).toBe('Unknown');
    expect(formatUser('')).toBe('Unknown');
    expect(formatUser('wordcut:1')).toBe('wordcut:1');
  });

  it('falls back to the raw value for a date it cannot parse', () => {
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDate('2026-01-02T03:04:05Z', 'en-US')).toMatch(/Jan 2, 2026/);
  });

  it('counts with the right noun', () => {
    expect(plural(1, 'clip')).toBe('1 clip');
    expect(plural(2, 'clip')).toBe('2 clips');
    expect(plural(1200, 'word')).toBe('1,200 words');
  });
});
