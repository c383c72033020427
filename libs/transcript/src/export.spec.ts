import { srtTimestamp, wordsToSrt } from './export';

describe('wordsToSrt', () => {
  const w = (text: string, start: number, end: number, group_number = 0) => ({ text, start, end, group_number });

  it('numbers cues, writes SubRip times and plain text, CRLF line ends', () => {
    const srt = wordsToSrt([w('Hello', 0.5, 0.9), w('world.', 1, 1.4), w('Next', 3.5, 4, 1)]);
    expect(srt.split('\r\n')).toEqual(['1', '00:00:00,500 --> 00:00:01,400', 'Hello world.', '', '2', '00:00:03,500 --> 00:00:04,000', 'Next', '']);
    expect(srtTimestamp(3661.0456)).toBe('01:01:01,046');
    expect(wordsToSrt([])).toBe('');
  });
});
