import {
  messagePreview,
  formatCount,
  formatDate,
  formatDuration,
  formatFileSize,
  formatMemory,
  formatMs,
  formatPayload,
  formatPercent,
  formatRelativeTime,
  formatUptime,
  formatUser,
  JOB_ID_CHARS,
  plural,
  REQUEST_ID_CHARS,
  SEVERITY_LABELS,
  shortId,
} from './format';

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

  it('says how long ago, falling back to the raw value for a date it cannot parse', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(formatRelativeTime('2026-03-01T11:59:30Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-03-01T11:57:00Z', now)).toBe('3 minutes ago');
    expect(formatRelativeTime('2026-03-01T11:59:00Z', now)).toBe('1 minute ago');
    expect(formatRelativeTime('2026-03-01T09:30:00Z', now)).toBe('2 hours ago');
    expect(formatRelativeTime('2026-02-27T12:00:00Z', now)).toBe('2 days ago');
    expect(formatRelativeTime('2026-03-01T12:05:00Z', now)).toBe('in 5 minutes');
    expect(formatRelativeTime('yesterday-ish', now)).toBe('yesterday-ish');
    expect(formatRelativeTime('', now)).toBe('');
  });

  it('shows uptime in whole minutes and memory as used / total with its unit', () => {
    expect(formatUptime(3_725)).toBe('62 minutes');
    expect(formatUptime(119)).toBe('1 minute');
    expect(formatUptime(59)).toBe('0 minutes');
    expect(formatUptime(Number.NaN)).toBe('N/A');
    expect(formatMemory({ used: 512.26, total: 2048, unit: 'MB' })).toBe('512.3 / 2,048 MB');
  });

  it('formats counts, percentages with 2 decimals, milliseconds and short ids', () => {
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(undefined)).toBe('0');
    expect(formatPercent(0.4)).toBe('0.40%');
    expect(formatPercent(12.345)).toBe('12.35%');
    expect(formatMs(12_345.6)).toBe('12,346 ms');
    expect(shortId('req-0123456789abcdef', REQUEST_ID_CHARS)).toBe('req-01234567');
    expect(shortId('abcdef123456', JOB_ID_CHARS)).toBe('abcdef12');
    expect(shortId('abc', 8)).toBe('abc');
  });

  it("reads severity 'warn' as Warning", () => {
    expect(SEVERITY_LABELS.warn).toBe('Warning');
    expect(SEVERITY_LABELS.error).toBe('Error');
    expect(SEVERITY_LABELS.fatal).toBe('Fatal');
  });

  it('shows a payload as pretty JSON', () => {
    expect(formatPayload({ a: 1, b: [2] })).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(formatPayload('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatPayload('not json')).toBe('not json');
    expect(formatPayload(undefined)).toBe('No payload');
    expect(formatPayload(null)).toBe('No payload');
    expect(formatPayload(42)).toBe('42');
  });
});

describe('messagePreview', () => {
  it('keeps a short message whole and cuts a long one at a word, with an ellipsis', () => {
    expect(messagePreview('disk full')).toBe('disk full');
    const long = `message dead-lettered: ${'invalid field, '.repeat(40)}`;
    const preview = messagePreview(long);
    expect(preview.length).toBeLessThanOrEqual(241);
    expect(preview.endsWith('…')).toBe(true);
    expect(long.startsWith(preview.slice(0, -1))).toBe(true);
    expect(messagePreview('x'.repeat(300))).toBe(`${'x'.repeat(240)}…`);
  });
});
