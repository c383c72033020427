import { formatDuration, formatTimestamp } from './format';

describe('formats', () => {
  it('formats durations: seconds under a minute, then minutes and seconds', () => {
    expect([5.125, 42.44, 65, 3725, Number.NaN].map((s) => formatDuration(s))).toEqual(['5.13 s', '42.4 s', '1m 05s', '1h 2m 05s', 'N/A']);
  });

  it('formats timestamps: m:ss, h:mm:ss from an hour', () => {
    expect([0, 7.9, 65, 3725, Number.NaN].map((s) => formatTimestamp(s))).toEqual(['0:00', '0:07', '1:05', '1:02:05', '0:00']);
  });
});
