import { transcriptPatchSchema } from '@wordcut/contracts';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { randomTextEdit, seededRandom, syntheticVtt, vttTime } from './transcript-data';

describe('syntheticVtt', () => {
  it('builds into a transcript of exactly the asked number of words, with paragraphs and fillers', () => {
    const t = buildTranscriptFromVtt(syntheticVtt(3000, 7));
    expect(t.words).toHaveLength(3000);
    const sizes = t.paragraphs.map((p) => p.wordIndices.length);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(mean).toBeGreaterThan(20);
    expect(mean).toBeLessThan(90);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(120);
    expect(t.fillerWords.length).toBeGreaterThan(10);
    // about 2.6 words a second: 3000 words are 15 to 25 minutes
    const last = t.words[t.words.length - 1]!;
    expect(last.end).toBeGreaterThan(15 * 60);
    expect(last.end).toBeLessThan(25 * 60);
  });

  it('is the same file for the same seed and another for another seed', () => {
    expect(syntheticVtt(500, 1)).toBe(syntheticVtt(500, 1));
    expect(syntheticVtt(500, 1)).not.toBe(syntheticVtt(500, 2));
  });

  it('refuses a word count that is not a positive integer', () => {
    expect(() => syntheticVtt(0, 1)).toThrow(/wordCount/);
    expect(() => syntheticVtt(2.5, 1)).toThrow(/wordCount/);
  });
});

describe('vttTime', () => {
  it('writes hours, minutes, seconds and milliseconds', () => {
    expect(vttTime(0)).toBe('00:00:00.000');
    expect(vttTime(3723.4567)).toBe('01:02:03.457');
  });
});

describe('randomTextEdit', () => {
  it('changes the text of 1 to 3 distinct words within the transcript, as a valid PATCH body', () => {
    const rng = seededRandom(3);
    const counts = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const deltas = randomTextEdit(rng, 50);
      counts.add(deltas.length);
      const orders = deltas.map((d) => d.word_order);
      expect(new Set(orders).size).toBe(orders.length);
      for (const o of orders) expect(o).toBeGreaterThanOrEqual(0);
      for (const o of orders) expect(o).toBeLessThan(50);
      expect(transcriptPatchSchema.safeParse({ version: 1, wordDeltas: deltas }).success).toBe(true);
    }
    expect([...counts].sort()).toEqual([1, 2, 3]);
  });

  it('refuses transcripts too small for 3 distinct words', () => {
    expect(() => randomTextEdit(seededRandom(1), 2)).toThrow(/wordCount/);
  });
});

describe('seededRandom', () => {
  it('repeats for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
});
