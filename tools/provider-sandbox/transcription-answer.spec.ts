import { languageName, verboseTranscription, wordsOfStretch } from './transcription-answer';

const script = [
  { text: 'Hello', start: 0.5, end: 0.9 },
  { text: 'there.', start: 0.9, end: 1.4 },
  { text: 'Welcome', start: 2.0, end: 2.6 },
  { text: 'back', start: 2.6, end: 2.9 },
  { text: 'again', start: 4.5, end: 5.0 },
  { text: 'friends.', start: 5.0, end: 5.6 },
];

describe('wordsOfStretch', () => {
  it('takes the words whose middle is inside, in the stretch’s time, within 0..duration', () => {
    // 'there.' (middle 1.15) is in, 'Hello' (0.7) is not; 'again' (4.75) is in and cut at the end
    expect(wordsOfStretch(script, 1.0, 3.8)).toEqual([
      { text: 'there.', start: 0, end: 0.4 },
      { text: 'Welcome', start: 1, end: 1.6 },
      { text: 'back', start: 1.6, end: 1.9 },
      { text: 'again', start: 3.5, end: 3.8 },
    ]);
    expect(wordsOfStretch(script, 6, 2)).toEqual([]);
  });
});

describe('verboseTranscription', () => {
  it('answers OpenAI’s verbose_json: text, words, segments at sentence ends and pauses over 1 s', () => {
    const a = verboseTranscription(script, 6.1234, 'en-US');
    expect(a).toMatchObject({ task: 'transcribe', language: 'english', duration: 6.123, text: 'Hello there. Welcome back again friends.' });
    expect(a.words[1]).toEqual({ word: 'there.', start: 0.9, end: 1.4 });
    expect(a.segments).toEqual([
      { id: 0, seek: 0, start: 0.5, end: 1.4, text: ' Hello there.' },
      { id: 1, seek: 0, start: 2, end: 2.9, text: ' Welcome back' },
      { id: 2, seek: 0, start: 4.5, end: 5.6, text: ' again friends.' },
    ]);
    expect(verboseTranscription([], 2).segments).toEqual([]);
  });

  it('names languages as OpenAI does', () => {
    expect(['de', 'fr-CA', 'pt_BR', undefined, 'zz', '??'].map(languageName)).toEqual(['german', 'french', 'portuguese', 'english', 'english', 'english']);
  });
});
