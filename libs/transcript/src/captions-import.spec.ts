import fc from 'fast-check';
import { TranscriptBuildError } from './errors';
import { buildTranscriptFromCaptions, detectCaptionFormat, srtToVtt } from './captions-import';

const SRT = `1
00:00:01,000 --> 00:00:02,500
Hello there, friend.

2
00:00:03,000 --> 00:00:04,000
How are you?

3
not a timing line
Broken entry

4
00:00:05,000 --> 00:00:04,000
Ends before it starts.
`;

const WHISPER = JSON.stringify({
  text: ' Hello world. Again.',
  language: 'en',
  segments: [
    { id: 0, start: 0, end: 1.2, text: ' Hello world.', words: [{ word: ' Hello', start: 0, end: 0.5, probability: 0.98 }, { word: ' world.', start: 0.6, end: 1.2, probability: 0.91 }] },
    { id: 1, start: 1.5, end: 2, text: ' Again.', words: [{ word: ' Again.', start: 1.5, end: 2, probability: 0.7 }] },
  ],
});

const WHISPERX = JSON.stringify({
  segments: [
    { start: 0.1, end: 2, text: 'I have 2 cats', words: [{ word: 'I', start: 0.1, end: 0.2, score: 0.9 }, { word: 'have', start: 0.3, end: 0.6, score: 0.8 }, { word: '2' }, { word: 'cats', start: 1.2, end: 1.9, score: 1.4 }] },
  ],
});

const words = (t: { words: { text: string; start: number; end: number }[] }) => t.words.map((w) => [w.text, w.start, w.end]);

describe('captions from anywhere', () => {
  it('tells the formats apart by their content', () => {
    expect([detectCaptionFormat('WEBVTT\n\n'), detectCaptionFormat('\uFEFFWEBVTT'), detectCaptionFormat(SRT), detectCaptionFormat(WHISPER), detectCaptionFormat('{"words": []}'), detectCaptionFormat('{"x": 1}'), detectCaptionFormat('hello'), detectCaptionFormat('{broken')]).toEqual([
      'vtt', 'vtt', 'srt', 'whisper-json', 'word-json', null, null, null,
    ]);
  });

  it('reads SubRip: its cues spread by syllables, malformed entries skipped (or mended) with warnings, as WebVTT', () => {
    expect(srtToVtt('1\r\n0:00:01,5 --> 0:00:02,000\r\nHi')).toBe('WEBVTT\n\n1\n00:00:01.500 --> 00:00:02.000\nHi');
    const t = buildTranscriptFromCaptions(SRT);
    expect(t.words.map((w) => w.text)).toEqual(['Hello', 'there,', 'friend.', 'How', 'are', 'you?', 'Ends', 'before', 'it', 'starts.']);
    expect(t.warnings!.map((w) => w.message)).toEqual([expect.stringContaining('skipped'), expect.stringContaining('kept with its start as its end')]);
    expect(t.words[0]!.start).toBe(1);
    expect(t.words[2]!.end).toBeCloseTo(2.5, 3);
    expect(t.words[3]!.start).toBe(3);
    expect(t.warnings!.length).toBeGreaterThan(0);
  });

  it("names the SubRip file's own lines in its warnings", () => {
    const t = buildTranscriptFromCaptions('1\n00:00:00,000 --> 00:00:01,000\nok\n\n2\n00:00:01,000 -> 00:00:02,000\nbad\n');
    expect(t.warnings).toEqual([{ line: 6, message: expect.stringMatching(/^cue at line 6 skipped/) }]);
  });

  it('reads Whisper JSON word timings and its language', () => {
    const t = buildTranscriptFromCaptions(WHISPER);
    expect(words(t)).toEqual([['Hello', 0, 0.5], ['world.', 0.6, 1.2], ['Again.', 1.5, 2]]);
    expect(t.words.map((w) => w.confidence)).toEqual([0.98, 0.91, 0.7]);
    expect(t.languageCode).toBe('en');
  });

  it('reads WhisperX: a word it could not align is skipped with a warning, scores held to 0..1', () => {
    const t = buildTranscriptFromCaptions(WHISPERX);
    expect(words(t)).toEqual([['I', 0.1, 0.2], ['have', 0.3, 0.6], ['cats', 1.2, 1.9]]);
    expect(t.words[2]!.confidence).toBe(1);
    expect(t.warnings!.some((w) => /word 2/.test(w.message))).toBe(true);
  });

  it('reads Whisper segments without words as cues', () => {
    const t = buildTranscriptFromCaptions(JSON.stringify({ language: 'en', segments: [{ start: 0, end: 1, text: ' Two words' }, { start: 'x', text: 'bad' }] }));
    expect(t.words.map((w) => w.text)).toEqual(['Two', 'words']);
  });

  it('reads the word JSON we export, and refuses anything else with the formats named', () => {
    expect(words(buildTranscriptFromCaptions(JSON.stringify({ languageCode: 'en', words: [{ text: 'Hi', start: 0, end: 0.4 }] })))).toEqual([['Hi', 0, 0.4]]);
    expect(() => buildTranscriptFromCaptions('just some text')).toThrow(/WebVTT, SubRip \(\.srt\), Whisper or WhisperX JSON, or word-timing JSON/);
  });
});

describe('captions from anywhere, on hostile input (fuzzed)', () => {
  const piece = fc.oneof(
    fc.constantFrom('WEBVTT\n\n', '1\n', '00:00:01,000 --> 00:00:02,000\n', '00:00:05.000 --> 00:00:04.000\n', '{', '}', '"segments":', '"words":', '[', ']', ',', '"word":', '"start":', '"end":', '-1', '1e308', 'null', '\n\n', '\uFEFF', '<b>', '-->'),
    fc.string({ maxLength: 12 }),
  );
  const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));

  it('either builds a transcript or throws a TranscriptBuildError, never anything else, and every word is timed in order', () => {
    fc.assert(
      fc.property(text, (input) => {
        try {
          const t = buildTranscriptFromCaptions(input);
          for (const w of t.words) {
            expect(Number.isFinite(w.start) && Number.isFinite(w.end) && w.end >= w.start).toBe(true);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(TranscriptBuildError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads a large Whisper file word for word', () => {
    const segments = Array.from({ length: 2000 }, (_, k) => ({ start: k, end: k + 0.9, text: 'a b c', words: ['a', 'b', 'c'].map((word, j) => ({ word, start: k + j * 0.3, end: k + j * 0.3 + 0.2, probability: 0.9 })) }));
    const t = buildTranscriptFromCaptions(JSON.stringify({ language: 'en', segments }));
    expect(t.words).toHaveLength(6000);
    expect(t.words[5999]).toMatchObject({ text: 'c', start: 1999.6 });
  });
});
