import { replacedMessage } from './replaceTranscript';

describe('replacedMessage', () => {
  it('says how many words came in, that Undo brings the old ones back, and what was skipped', () => {
    expect(replacedMessage({ wordCount: 1, warnings: [] })).toEqual({ title: 'Transcript replaced', description: 'The transcript now has 1 word from your file. Undo brings the words before back.' });
    expect(replacedMessage({ wordCount: 1200, warnings: [{ line: 3, message: 'x' }, { line: 9, message: 'y' }] }).description).toBe(
      'The transcript now has 1,200 words from your file. Undo brings the words before back. 2 entries of the file were skipped or mended; the transcript lists why.',
    );
  });
});
