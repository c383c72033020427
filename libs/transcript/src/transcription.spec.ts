import { seededRandom } from '../../../tools/testing/transcript-data';
import {
  TRANSCRIPTION_CHUNK_DEFAULTS,
  TranscriptionAnswerError,
  joinTranscribedChunks,
  parseTranscriptionAnswer,
  planTranscriptionChunks,
  type TranscribedWord,
  type TranscriptionChunk,
} from './transcription';

const w = (text: string, start: number, end: number): TranscribedWord => ({ text, start, end });
const texts = (words: readonly TranscribedWord[]) => words.map((x) => x.text);
const chunk = (index: number, startSec: number, endSec: number): TranscriptionChunk => ({ index, startSec, endSec });
/** Words on the video's timeline as a chunk starting at `startSec` answers them. */
const relative = (startSec: number, words: readonly TranscribedWord[]) => words.map((x) => ({ ...x, start: x.start - startSec, end: x.end - startSec }));


describe('transcription chunk plans', () => {
  it('sends a short video (and an empty one) as one chunk', () => {
    expect(planTranscriptionChunks(90)).toEqual([{ index: 0, startSec: 0, endSec: 90 }]);
    expect(planTranscriptionChunks(600)).toEqual([{ index: 0, startSec: 0, endSec: 600 }]);
    expect(planTranscriptionChunks(0)).toEqual([{ index: 0, startSec: 0, endSec: 0 }]);
  });

  it('cuts 25 minutes into 10-minute chunks overlapping by 5 s', () => {
    expect(TRANSCRIPTION_CHUNK_DEFAULTS).toEqual({ chunkSec: 600, overlapSec: 5 });
    expect(planTranscriptionChunks(25 * 60)).toEqual([
      { index: 0, startSec: 0, endSec: 600 },
      { index: 1, startSec: 595, endSec: 1195 },
      { index: 2, startSec: 1190, endSec: 1500 },
    ]);
  });

  it('evens the chunks out rather than ending with a sliver', () => {
    // 0-600, 595-1195 would leave 1190-1210: 15 s of new audio
    const plan = planTranscriptionChunks(1210);
    expect(plan).toHaveLength(3);
    expect(plan[2]!.endSec).toBe(1210);
    const lengths = plan.map((c) => c.endSec - c.startSec);
    for (const length of lengths) expect(length).toBeCloseTo(1220 / 3, 2);
    expect(plan[0]!.endSec - plan[1]!.startSec).toBeCloseTo(5, 6);
    expect(plan[1]!.endSec - plan[2]!.startSec).toBeCloseTo(5, 6);
    // two chunks: halves, still overlapping
    expect(planTranscriptionChunks(601)).toEqual([{ index: 0, startSec: 0, endSec: 303 }, { index: 1, startSec: 298, endSec: 601 }]);
  });

  it('covers every second with overlapping chunks no longer than asked, for any duration and options', () => {
    const random = seededRandom(7);
    for (let run = 0; run < 300; run++) {
      const chunkSec = 10 + Math.floor(random() * 600);
      const overlapSec = Math.floor(random() * (chunkSec / 2 - 0.5) * 10) / 10;
      const durationSec = Math.round(random() * 5000 * 1000) / 1000;
      const plan = planTranscriptionChunks(durationSec, { chunkSec, overlapSec });
      const tag = `${durationSec} s in ${chunkSec} s chunks overlapping by ${overlapSec} s`;
      expect({ tag, first: plan[0]!.startSec, last: plan[plan.length - 1]!.endSec }).toEqual({ tag, first: 0, last: durationSec });
      plan.forEach((c, i) => {
        expect(c.index).toBe(i);
        expect(c.endSec - c.startSec).toBeLessThanOrEqual(chunkSec + 1e-9);
        if (i > 0) expect(plan[i - 1]!.endSec - c.startSec).toBeCloseTo(overlapSec, 2);
      });
      if (plan.length > 1) expect(durationSec - plan[plan.length - 2]!.endSec).toBeGreaterThanOrEqual(Math.min(2 * overlapSec, chunkSec / 10) - 0.01);
      let uncovered: number | null = null;
      for (let t = 0, k = 0; t <= durationSec && uncovered === null; t++) {
        while (plan[k]!.endSec < t) k++;
        if (plan[k]!.startSec > t) uncovered = t;
      }
      expect({ tag, uncovered }).toEqual({ tag, uncovered: null });
    }
  });

  it('refuses durations and options it cannot plan', () => {
    for (const duration of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => planTranscriptionChunks(duration)).toThrow(RangeError);
    expect(() => planTranscriptionChunks(100, { chunkSec: 5 })).toThrow(RangeError);
    expect(() => planTranscriptionChunks(100, { chunkSec: Number.NaN })).toThrow(RangeError);
    expect(() => planTranscriptionChunks(100, { overlapSec: -1 })).toThrow(RangeError);
    expect(() => planTranscriptionChunks(100, { chunkSec: 20, overlapSec: 10 })).toThrow(RangeError);
    expect(() => planTranscriptionChunks(1e7, { chunkSec: 10, overlapSec: 0 })).toThrow(/at most 10000/);
    expect(planTranscriptionChunks(1e5, { chunkSec: 10, overlapSec: 0 })).toHaveLength(10_000);
  });
});

describe('transcription answers', () => {
  it('reads OpenAI verbose_json: top-level words, the language name as a code, the text trimmed', () => {
    const answer = parseTranscriptionAnswer({
      task: 'transcribe',
      language: 'english',
      duration: 2.4,
      text: ' Hello world, this is WordCut. ',
      words: [
        { word: ' Hello', start: 0, end: 0.42 },
        { word: ' world,', start: 0.42, end: 0.9 },
        { word: ' WordCut.', start: 1.6, end: 2.3 },
        { word: ' this', start: 1.0, end: 1.2 },
        { word: ' is', start: 1.2, end: 1.5 },
      ],
    });
    expect(answer).toEqual({
      language: 'en',
      text: 'Hello world, this is WordCut.',
      words: [w('Hello', 0, 0.42), w('world,', 0.42, 0.9), w('this', 1.0, 1.2), w('is', 1.2, 1.5), w('WordCut.', 1.6, 2.3)],
    });
  });

  it('reads faster-whisper segments[].words[], probability as confidence (held to 0..1)', () => {
    const answer = parseTranscriptionAnswer({
      language: 'de',
      text: 'Guten Tag. Wie geht es?',
      segments: [
        { id: 0, start: 0, end: 1.1, text: ' Guten Tag.', words: [{ word: ' Guten', start: 0, end: 0.5, probability: 0.98 }, { word: ' Tag.', start: 0.5, end: 1.1, probability: 1.2 }] },
        { id: 1, start: 1.5, end: 2.6, text: ' Wie geht es?', words: [{ word: ' Wie', start: 1.5, end: 1.8, probability: 0.7 }, { word: ' geht', start: 1.8, end: 2.1, probability: 0.6 }, { word: ' es?', start: 2.1, end: 2.6, probability: 0.9 }] },
      ],
    });
    expect(answer.language).toBe('de');
    expect(texts(answer.words)).toEqual(['Guten', 'Tag.', 'Wie', 'geht', 'es?']);
    expect(answer.words.map((x) => x.confidence)).toEqual([0.98, 1, 0.7, 0.6, 0.9]);
    expect(answer.words[4]).toEqual({ text: 'es?', start: 2.1, end: 2.6, confidence: 0.9 });
  });

  it('says what to change when the answer has no word timings', () => {
    const message = 'The transcription service answered without word timings (it needs response_format=verbose_json and timestamp_granularities[]=word).';
    expect(() => parseTranscriptionAnswer({ text: 'Hello world.' })).toThrow(new TranscriptionAnswerError(message));
    expect(() => parseTranscriptionAnswer({ text: 'Hello world.' })).toThrow(TranscriptionAnswerError);
    // verbose_json asked for without timestamp_granularities[]=word: segments, but no words
    expect(() => parseTranscriptionAnswer({ text: 'Hi', segments: [{ start: 0, end: 1, text: ' Hi' }] })).toThrow(message);
    for (const bad of [null, [], 'Hello', 42]) expect(() => parseTranscriptionAnswer(bad)).toThrow(TranscriptionAnswerError);
  });

  it('reads silence as no words', () => {
    expect(parseTranscriptionAnswer({ text: '', words: [] })).toEqual({ words: [], language: null, text: '' });
    expect(parseTranscriptionAnswer({ text: '', segments: [] }).words).toEqual([]);
  });

  it('drops words without finite times or text, and words ending before they start', () => {
    const answer = parseTranscriptionAnswer({
      words: [
        { word: 'kept', start: 0, end: 0.5 },
        { word: 'nan', start: Number.NaN, end: 1 },
        { word: 'missing', start: 1 },
        { word: 'text', start: '1', end: '2' },
        { word: '   ', start: 2, end: 2.5 },
        { word: 'backwards', start: 3, end: 2.5 },
        null,
        { text: 'also', start: 4, end: 4.5 },
      ],
    });
    expect(answer.words).toEqual([w('kept', 0, 0.5), w('also', 4, 4.5)]);
    expect(answer.text).toBe('kept also');
  });

  it('maps language names to ISO 639-1 codes; codes stay; unknown is null', () => {
    const language = (value: unknown) => parseTranscriptionAnswer({ language: value, words: [] }).language;
    expect(['english', 'German', 'spanish', 'french', 'chinese', 'japanese', 'portuguese', 'russian', 'korean', 'italian', 'dutch', 'turkish', 'polish', 'arabic', 'hindi', 'swedish', 'indonesian', 'vietnamese', 'ukrainian', 'hebrew', 'haitian creole'].map(language)).toEqual([
      'en', 'de', 'es', 'fr', 'zh', 'ja', 'pt', 'ru', 'ko', 'it', 'nl', 'tr', 'pl', 'ar', 'hi', 'sv', 'id', 'vi', 'uk', 'he', 'ht',
    ]);
    expect([' en ', 'FR', 'pt-BR', 'klingon', '', undefined, 3].map(language)).toEqual(['en', 'fr', 'pt', null, null, null, null]);
  });

  it('refuses an answer with more than 200 000 words', () => {
    const many = Array.from({ length: 200_001 }, (_, i) => ({ word: 'a', start: i, end: i + 0.5 }));
    expect(() => parseTranscriptionAnswer({ words: many })).toThrow(/more than 200000 words/);
    expect(() => parseTranscriptionAnswer({ segments: [{ words: many.slice(0, 100_000) }, { words: many.slice(100_000) }] })).toThrow(TranscriptionAnswerError);
    expect(parseTranscriptionAnswer({ words: many.slice(1) }).words).toHaveLength(200_000);
  });
});

describe('joining chunk answers', () => {
  const A = chunk(0, 0, 20);
  const B = chunk(1, 15, 35);

  it('splices in the middle of the words both chunks heard in their overlap', () => {
    const earlier = [w('So', 12, 12.4), w('yesterday', 13, 13.8), w('and', 16, 16.3), w('then', 16.5, 16.8), w('we', 17, 17.2), w('went', 17.5, 17.9), w('ho', 19.7, 20)];
    const later = [w('and', 16.1, 16.4), w('then,', 16.4, 16.7), w('We', 17.1, 17.3), w('went', 17.4, 17.8), w('home.', 19.7, 20.3), w('Later', 22, 22.5)];
    const joined = joinTranscribedChunks([{ chunk: A, words: earlier }, { chunk: B, words: relative(15, later) }]);
    expect(texts(joined)).toEqual(['So', 'yesterday', 'and', 'then', 'We', 'went', 'home.', 'Later']);
    // the earlier chunk's 'and then', the later chunk's from 'We' on
    expect(joined[3]).toEqual(w('then', 16.5, 16.8));
    expect(joined[4]).toEqual(w('We', 17.1, 17.3));
    expect(joined[7]).toEqual(w('Later', 22, 22.5));
  });

  it('cuts in time at the middle of the overlap when the chunks disagree', () => {
    const earlier = [w('the', 14, 14.3), w('cat', 16, 16.4), w('sat', 17, 17.4), w('down', 18, 18.4)];
    const later = [w('a', 16.1, 16.3), w('bat', 17.0, 17.3), w('sad', 17.6, 17.9), w('town', 18.1, 18.5), w('now', 21, 21.3)];
    const joined = joinTranscribedChunks([{ chunk: A, words: earlier }, { chunk: B, words: relative(15, later) }]);
    expect(texts(joined)).toEqual(['the', 'cat', 'sat', 'sad', 'town', 'now']);
    expect(joined[2]!.end).toBeCloseTo(17.4, 6);
    expect(joined[3]!.start).toBeCloseTo(17.6, 6);
  });

  it('keeps a word straddling the cut once, from the chunk it starts in', () => {
    // speech without a pause through the overlap; the chunks disagree on all but one word
    const earlier = [w('one', 14.8, 16), w('two', 16, 17.2), w('extraordinary', 17.2, 18), w('fo', 18, 20)];
    const later = [w('won', 15, 16.1), w('too', 16.1, 17.3), w('extraordinary', 17.3, 18.1), w('four', 18.1, 20.3), w('five', 20.3, 21)];
    const joined = joinTranscribedChunks([{ chunk: A, words: earlier }, { chunk: B, words: relative(15, later) }]);
    // cut at 17.5 s, inside 'extraordinary': the earlier chunk's, which starts before the cut
    expect(texts(joined)).toEqual(['one', 'two', 'extraordinary', 'four', 'five']);
    expect(joined[2]).toEqual(w('extraordinary', 17.2, 18));
    expect(joined[3]).toEqual(w('four', 18.1, 20.3));
  });

  it('moves the cut into the nearest pause when the middle of the overlap falls inside a word', () => {
    // a 1 s overlap: 'the' starts before its middle but runs past the earlier chunk's end, which did not hear it
    const earlier = [w('of', 32.7, 33.2), w('ofs', 33.7, 34.2)];
    const later = [w('the', 34.32, 35.01), w('a', 35.27, 35.9)];
    const joined = joinTranscribedChunks([{ chunk: chunk(0, 17, 35), words: relative(17, earlier) }, { chunk: chunk(1, 34, 52), words: relative(34, later) }]);
    expect(texts(joined)).toEqual(['of', 'ofs', 'the', 'a']);
    // not between the two chunks' times of one word
    const twice = joinTranscribedChunks([
      { chunk: A, words: [w('so', 14, 14.5), w('it', 16.9, 17.2), w('and', 17.3, 17.48), w('she', 18.3, 18.6)] },
      { chunk: B, words: relative(15, [w('a', 16.2, 16.6), w('and', 17.52, 17.7), w('he', 18.35, 18.6)]) },
    ]);
    expect(texts(twice)).toEqual(['so', 'it', 'and', 'he']);
  });

  it("keeps the words of the overlap that only one chunk heard", () => {
    const earlier = [w('wait', 16, 16.4), w('for', 17.8, 18.1), w('it', 18.5, 18.8), w('n', 19.9, 20)];
    const later = [w('now', 20.05, 20.5), w('yes', 21, 21.5)];
    // the word cut off by the earlier chunk's end is the later chunk's
    expect(texts(joinTranscribedChunks([{ chunk: A, words: earlier }, { chunk: B, words: relative(15, later) }]))).toEqual(['wait', 'for', 'it', 'now', 'yes']);
    const late = [w('then', 15.2, 15.6), w('we', 16.8, 17), w('left', 19.5, 20.2)];
    expect(texts(joinTranscribedChunks([{ chunk: A, words: [w('so', 13, 13.4)] }, { chunk: B, words: relative(15, late) }]))).toEqual(['so', 'then', 'we', 'left']);
  });

  it('joins three chunks into the speech as said', () => {
    const speech = ['this', 'is', 'a', 'long', 'video', 'about', 'cutting', 'words', 'out', 'of', 'speech', 'with', 'a', 'text', 'editor', 'nice'].map((text, i) => w(text, i * 3 + 0.5, i * 3 + 1.2));
    const chunks = [chunk(0, 0, 20), chunk(1, 15, 35), chunk(2, 30, 50)];
    const parts = chunks.map((c) => ({ chunk: c, words: relative(c.startSec, speech.filter((x) => x.start >= c.startSec && x.end <= c.endSec)) }));
    const joined = joinTranscribedChunks(parts);
    expect(texts(joined)).toEqual(texts(speech));
    joined.forEach((x, i) => {
      expect(x.start).toBeCloseTo(speech[i]!.start, 6);
      expect(x.end).toBeCloseTo(speech[i]!.end, 6);
    });
  });

  it('takes a silent chunk in the middle in its stride, keeping what its neighbours heard', () => {
    const first = [w('before', 2, 2.5), w('the', 16, 16.2), w('break', 16.5, 17)];
    const last = [w('after', 36, 36.5), w('it', 37, 37.2)];
    const parts = [{ chunk: chunk(0, 0, 20), words: first }, { chunk: chunk(1, 15, 35), words: [] }, { chunk: chunk(2, 30, 50), words: relative(30, last) }];
    expect(texts(joinTranscribedChunks(parts))).toEqual(['before', 'the', 'break', 'after', 'it']);
    expect(joinTranscribedChunks([])).toEqual([]);
    expect(joinTranscribedChunks([{ chunk: B, words: [w('hi', 1, 1.5)] }])).toEqual([w('hi', 16, 16.5)]);
  });

  it('refuses parts out of chunk order', () => {
    expect(() => joinTranscribedChunks([{ chunk: B, words: [] }, { chunk: A, words: [] }])).toThrow(RangeError);
    expect(() => joinTranscribedChunks([{ chunk: A, words: [] }, { chunk: A, words: [] }])).toThrow(RangeError);
  });

  describe('on random speech', () => {
    const VOCABULARY = 'the a and to of I you it is that we so um like yeah right okay well this was what then but no go now here there one two'.split(' ');
    type Said = TranscribedWord & { id: number };

    /** Words said one after another (never the same word twice in a row), with pauses. */
    function speech(random: () => number, durationSec: number): Said[] {
      const said: Said[] = [];
      let t = random() * 2;
      while (true) {
        const length = 0.15 + random() * 0.65;
        if (t + length > durationSec) return said;
        let text = VOCABULARY[Math.floor(random() * VOCABULARY.length)]!;
        if (text === said[said.length - 1]?.text) text = `${text}s`;
        said.push({ id: said.length, text, start: t, end: t + length });
        t += length + (random() < 0.05 ? 2 + random() * 8 : random() * 0.6);
      }
    }

    /** What the service answers for one chunk: the words inside it, optionally misheard and jittered. */
    function answer(random: () => number, said: readonly Said[], c: TranscriptionChunk, noisy: boolean): Said[] {
      const heard: Said[] = [];
      let previousStart = -Infinity;
      for (const word of said) {
        const inside = word.start >= c.startSec && word.end <= c.endSec;
        // a word cut by the chunk's edge may still be heard when most of it is inside
        const straddles = Math.min(word.end, c.endSec) - Math.max(word.start, c.startSec) >= (word.end - word.start) / 2;
        if (!inside && !(noisy && straddles && random() < 0.5)) continue;
        if (noisy && random() < 0.03) continue;
        const jitter = () => (noisy ? (random() - 0.5) * 0.2 : 0);
        // jittered, but in the order said (as one answer gives them)
        const start = Math.min(c.endSec, Math.max(c.startSec, previousStart, word.start + jitter()));
        previousStart = start;
        const end = Math.min(c.endSec, Math.max(start, word.end + jitter()));
        const text = noisy && random() < 0.1 ? VOCABULARY[Math.floor(random() * VOCABULARY.length)]! : word.text;
        heard.push({ ...word, text, start: start - c.startSec, end: end - c.startSec });
      }
      return heard;
    }

    function check(seed: number, noisy: boolean) {
      const random = seededRandom(seed);
      const durationSec = 20 + random() * 280;
      const chunkSec = 10 + Math.floor(random() * 50);
      const overlapSec = 1 + Math.floor(random() * Math.min(8, chunkSec / 2 - 1));
      const said = speech(random, durationSec);
      const plan = planTranscriptionChunks(durationSec, { chunkSec, overlapSec });
      const joined = joinTranscribedChunks(plan.map((c) => ({ chunk: c, words: answer(random, said, c, noisy) }))) as Said[];
      const ids = joined.map((x) => x.id);
      for (let i = 0; i < joined.length; i++) {
        const x = joined[i]!;
        if (!(x.end >= x.start) || (i > 0 && (x.start < joined[i - 1]!.start || x.id <= joined[i - 1]!.id))) {
          throw new Error(`seed ${seed}${noisy ? ' (noisy)' : ''}: word ${i} (${x.text}, ${x.start}-${x.end}, said as #${x.id}) after #${joined[i - 1]?.id} at ${joined[i - 1]?.start}`);
        }
      }
      return { said, joined, ids };
    }

    it('joins exact answers into exactly the words said', () => {
      for (let seed = 1; seed <= 200; seed++) {
        const { said, joined, ids } = check(seed, false);
        expect({ seed, ids }).toEqual({ seed, ids: said.map((x) => x.id) });
        joined.forEach((x) => expect(Math.abs(x.start - said[x.id]!.start)).toBeLessThan(0.002));
      }
    });

    it('never duplicates, reorders or unsorts words of jittered, misheard answers', () => {
      let kept = 0;
      let total = 0;
      for (let seed = 1; seed <= 300; seed++) {
        const { said, ids } = check(seed, true);
        kept += new Set(ids).size;
        total += said.length;
      }
      // about 3 % of words are dropped by the "service"; the joins lose few more
      expect(kept / total).toBeGreaterThan(0.95);
    });
  });
});
