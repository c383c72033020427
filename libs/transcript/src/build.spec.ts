import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TRANSCRIPT_WORDS, type Paragraph, type Word } from '@wordcut/contracts';
import {
  TranscriptBuildError,
  VTT_WORD_CONFIDENCE,
  buildTranscriptFromVtt,
  buildTranscriptFromWordByWord,
  findInconsistencies,
  isRtl,
  normalizeLanguageCode,
} from './index';
import { thrownBy } from '../../../tools/testing/thrown';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const texts = (words: Word[]) => words.map((w) => w.text);
const timing = (words: Word[]) => words.map((w) => [w.text, w.start, w.end]);

const buildError = (fn: () => unknown): TranscriptBuildError => thrownBy(fn, TranscriptBuildError);

function expectConsistent(t: { words: Word[]; paragraphs: Paragraph[]; fillerWords: number[] }): void {
  expect(findInconsistencies(t)).toEqual([]);
}

describe('buildTranscriptFromVtt', () => {
  it('spreads a cue over its words in proportion to their length', () => {
    const t = buildTranscriptFromVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nI am here\n');
    // 1 + 2 + 4 = 7 characters over 1 s
    expect(timing(t.words)).toEqual([
      ['I', 1, 1.143],
      ['am', 1.143, 1.429],
      ['here', 1.429, 2],
    ]);
    expect(t.words.every((w) => w.confidence === VTT_WORD_CONFIDENCE)).toBe(true);
    expectConsistent(t);
  });

  it('splits multi-line cues into words, strips tags and voices, decodes entities', () => {
    const t = buildTranscriptFromVtt(fixture('interview-crlf.vtt'));
    expect(texts(t.words)).toEqual(['Welcome', 'to', 'the', 'show,', 'everyone.', 'Tom', '&', 'Jerry', '<3', '"cheese"', 'Really?']);
    expect(t.words[0]!.start).toBe(1);
    expect(t.words[4]!.end).toBe(4);
    expect(t.words[5]!.start).toBe(4.5);
    expectConsistent(t);
  });

  it('honours inline word timestamps: each word from its timestamp to the next, the first from the cue start', () => {
    const t = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nhello<00:00:01.400><c> big</c><00:00:02.100><c> world</c>\n',
    );
    expect(timing(t.words)).toEqual([
      ['hello', 1, 1.4],
      ['big', 1.4, 2.1],
      ['world', 2.1, 3],
    ]);
  });

  it('turns a realistic YouTube auto-caption file into each word once, with its own timing', () => {
    const t = buildTranscriptFromVtt(fixture('youtube-auto.vtt'));
    expect(texts(t.words).join(' ')).toBe(
      "so today we're going to talk about um how to edit the the video with text [Music] so so let's start",
    );
    const byText = (text: string, nth = 0) => t.words.filter((w) => w.text === text)[nth]!;
    expect([byText('so').start, byText('so').end]).toEqual([0, 0.359]);
    expect([byText('about').start, byText('about').end]).toEqual([1.68, 3.189]);
    // the first new word of a rolling cue starts at the cue start, not at the repeated line
    expect([byText('um').start, byText('um').end]).toEqual([3.199, 3.959]);
    expect([byText('video').start, byText('video').end]).toEqual([5.52, 6.12]);
    expect([byText('[Music]').start, byText('[Music]').end]).toEqual([8.08, 11]);
    expect([byText('start').start, byText('start').end]).toEqual([12.2, 13.5]);
    expect(t.languageCode).toBe('en');
    // so (quick), um, the repeated "the", and the quick "so so"
    expect(t.fillerWords.map((i) => t.words[i]!.text)).toEqual(['so', 'um', 'the', 'so', 'so']);
    expect(t.fillerWords).toContain(12);
    expectConsistent(t);
  });

  it('does not double identical consecutive cues', () => {
    const t = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nSame words here.\n\n00:00:02.000 --> 00:00:03.000\nSame words here.\n\n00:00:03.000 --> 00:00:04.000\nThen more.\n',
    );
    expect(texts(t.words)).toEqual(['Same', 'words', 'here.', 'Then', 'more.']);
    // the repeat extends nothing: the next words start at their own cue
    expect(t.words[3]!.start).toBe(3);
  });

  it('drops a word-by-word sliding overlap of 3+ words inside a line', () => {
    const t = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nwe are going to\n\n00:00:02.000 --> 00:00:03.000\nare going to build it\n',
    );
    expect(texts(t.words)).toEqual(['we', 'are', 'going', 'to', 'build', 'it']);
    expect(t.words[4]!.start).toBe(2);
  });

  it('keeps genuine repetitions: short overlaps inside a line, and repeats after a pause', () => {
    const short = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nI said no\n\n00:00:02.000 --> 00:00:03.000\nno way\n',
    );
    expect(texts(short.words)).toEqual(['I', 'said', 'no', 'no', 'way']);
    const later = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nAgain!\n\n00:00:05.000 --> 00:00:06.000\nAgain!\n',
    );
    expect(texts(later.words)).toEqual(['Again!', 'Again!']);
  });

  it('puts overlapping cues in time order', () => {
    const t = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:01.000 --> 00:00:05.000\none two three four\n\n00:00:02.000 --> 00:00:03.000\ninterjection\n',
    );
    const starts = t.words.map((w) => w.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(texts(t.words)).toEqual(['one', 'two', 'interjection', 'three', 'four']);
    expectConsistent(t);
  });

  it('builds paragraphs from pauses and sentence ends', () => {
    const t = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nFirst thought here.\n\n00:00:02.800 --> 00:00:04.000\nSecond thought\n\n00:00:06.000 --> 00:00:07.000\nafter a long pause\n',
    );
    expect(t.paragraphs.map((p) => p.wordIndices.map((i) => t.words[i]!.text).join(' '))).toEqual([
      'First thought here.',
      'Second thought',
      'after a long pause',
    ]);
    expect(t.paragraphs.map((p) => [p.start, p.end])).toEqual([
      [0, 2],
      [2.8, 4],
      [6, 7],
    ]);
    expectConsistent(t);
  });

  it('picks the language: header, then hint, then default, then en; normalized', () => {
    const body = '\n\n00:00:00.000 --> 00:00:01.000\nhola\n';
    expect(buildTranscriptFromVtt(`WEBVTT\nLanguage: es-mx${body}`, { languageHint: 'fr' }).languageCode).toBe('es-MX');
    expect(buildTranscriptFromVtt(`WEBVTT${body}`, { languageHint: 'pt_br', defaultLanguage: 'de' }).languageCode).toBe('pt-BR');
    expect(buildTranscriptFromVtt(`WEBVTT${body}`, { defaultLanguage: 'DE' }).languageCode).toBe('de');
    expect(buildTranscriptFromVtt(`WEBVTT${body}`).languageCode).toBe('en');
    // a header that is not a language tag is skipped
    expect(buildTranscriptFromVtt(`WEBVTT\nLanguage: Spanish${body}`, { languageHint: 'es' }).languageCode).toBe('es');
  });

  it('rejects files without words as VTT_EMPTY', () => {
    for (const text of ['', 'WEBVTT\n', 'WEBVTT\nKind: captions\nLanguage: en\n\n', 'WEBVTT\n\nNOTE only a comment\n']) {
      expect(buildError(() => buildTranscriptFromVtt(text)).code).toBe('VTT_EMPTY');
    }
    const blank = buildError(() => buildTranscriptFromVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<c> </c>\n'));
    expect(blank.code).toBe('VTT_EMPTY');
    expect(blank.message).toBe('The subtitle file has 1 cue(s) but none of them has any text.');
  });

  it('rejects garbage as VTT_INVALID', () => {
    expect(buildError(() => buildTranscriptFromVtt('\u0000\u0001binary junk')).code).toBe('VTT_INVALID');
    expect(buildError(() => buildTranscriptFromVtt('{"words": []}')).code).toBe('VTT_INVALID');
  });

  it('builds a long rolling file linearly and consistently', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const ts = (s: number) => {
      const ms = Math.round(s * 1000);
      return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
    };
    let text = 'WEBVTT\nKind: captions\nLanguage: en\n\n';
    let previous = ' ';
    let t = 0;
    const expected: string[] = [];
    for (let cue = 0; cue < 2000; cue++) {
      const words = Array.from({ length: 6 }, (_, k) => `w${cue}x${k}`);
      expected.push(...words);
      const inline = words.map((w, k) => (k === 0 ? w : `<${ts(t + k * 0.4)}><c> ${w}</c>`)).join('');
      text += `${ts(t)} --> ${ts(t + 3)} align:start position:0%\n${previous}\n${inline}\n\n`;
      text += `${ts(t + 3)} --> ${ts(t + 3.01)} align:start position:0%\n${words.join(' ')}\n \n\n`;
      previous = words.join(' ');
      t += 3.01;
    }
    const built = buildTranscriptFromVtt(text);
    expect(texts(built.words)).toEqual(expected);
    expectConsistent(built);
    expect(Math.max(...built.paragraphs.map((p) => p.wordIndices.length))).toBeLessThanOrEqual(120);
  });
});

describe('buildTranscriptFromWordByWord', () => {
  it('keeps provider words, times and confidence, in time order', () => {
    const t = buildTranscriptFromWordByWord(
      {
        languageCode: 'he',
        words: [
          { text: 'world.', start: 0.5, end: 0.9, confidence: 0.7 },
          { text: 'Hello', start: 0, end: 0.4 },
          { text: '  ', start: 0.95, end: 1 },
        ],
      },
      { languageHint: 'en' },
    );
    expect(t.languageCode).toBe('he');
    expect(t.words).toEqual([
      { text: 'Hello', start: 0, end: 0.4, confidence: 1, group_number: 0, word_order: 0 },
      { text: 'world.', start: 0.5, end: 0.9, confidence: 0.7, group_number: 0, word_order: 1 },
    ]);
    expectConsistent(t);
  });

  it('uses the hint when the file names no language', () => {
    expect(buildTranscriptFromWordByWord({ words: [{ text: 'a', start: 0, end: 1 }] }, { languageHint: 'ar-eg' }).languageCode).toBe('ar-EG');
  });

  it('skips a word that ends before it starts, with a warning naming its index, and keeps the others', () => {
    const t = buildTranscriptFromWordByWord({ words: [{ text: 'a', start: 0, end: 1 }, { text: 'oops', start: 2, end: 1 }, { text: 'b', start: 3, end: 4 }] });
    expect(texts(t.words)).toEqual(['a', 'b']);
    expect(t.warnings).toEqual([{ line: null, message: "word 1 ('oops') skipped: it ends (1 s) before it starts (2 s)" }]);
    expectConsistent(t);
  });

  it('skips malformed entries one by one, each with its reason', () => {
    const words = [
      { text: 'ok', start: 0, end: 1 },
      null,
      'text',
      { start: 1, end: 2 },
      { text: 7, start: 1, end: 2 },
      { text: 'no start', end: 2 },
      { text: 'no end', start: 1 },
      { text: 'string time', start: '1', end: 2 },
      { text: 'null end', start: 1, end: null },
      { text: 'negative', start: -1, end: 2 },
      { text: 'infinite', start: 1, end: Infinity },
      { text: 'NaN', start: Number.NaN, end: 2 },
      { text: 'bad confidence', start: 2, end: 3, confidence: 1.5 },
      { text: 'text confidence', start: 3, end: 4, confidence: 'high' },
      { text: 'null confidence', start: 4, end: 5, confidence: null },
    ];
    const t = buildTranscriptFromWordByWord({ words } as never);
    expect(timing(t.words)).toEqual([
      ['ok', 0, 1],
      ['bad confidence', 2, 3],
      ['text confidence', 3, 4],
      ['null confidence', 4, 5],
    ]);
    expect(t.words.map((w) => w.confidence)).toEqual([1, 1, 1, 1]);
    expect(t.warnings.map((w) => w.message)).toEqual([
      'word 1 skipped: it is not an object',
      'word 2 skipped: it is not an object',
      'word 3 skipped: its text is missing',
      'word 4 skipped: its text is not a string',
      "word 5 ('no start') skipped: it has no start time",
      "word 6 ('no end') skipped: it has no end time",
      "word 7 ('string time') skipped: its start time is not a number",
      "word 8 ('null end') skipped: it has no end time",
      "word 9 ('negative') skipped: its start time (-1 s) is negative",
      "word 10 ('infinite') skipped: its end time is not a number",
      "word 11 ('NaN') skipped: its start time is not a number",
      "word 12 ('bad confidence'): its confidence 1.5 is not a number from 0 to 1; 1 used",
      "word 13 ('text confidence'): its confidence high is not a number from 0 to 1; 1 used",
    ]);
    expect(t.warnings.every((w) => w.line === null)).toBe(true);
  });

  it('ignores a languageCode that is not a string, with a warning', () => {
    const t = buildTranscriptFromWordByWord({ languageCode: 42, words: [{ text: 'a', start: 0, end: 1 }] } as never, { languageHint: 'fr' });
    expect(t.languageCode).toBe('fr');
    expect(t.warnings).toEqual([{ line: null, message: 'languageCode ignored: it is not a string' }]);
  });

  it('refuses a file that is not the expected shape, or has no usable word, with WORDS_INVALID', () => {
    const notAFile = buildError(() => buildTranscriptFromWordByWord({ text: 'hello' } as never));
    expect(notAFile.code).toBe('WORDS_INVALID');
    expect(notAFile.message).toBe('The word-by-word file is invalid at words: it is missing.');
    expect(buildError(() => buildTranscriptFromWordByWord({ words: 'a b' } as never)).message).toBe('The word-by-word file is invalid at words: it must be an array.');
    for (const file of [null, 'words', [], 3]) {
      expect(buildError(() => buildTranscriptFromWordByWord(file as never)).message).toBe(
        "The word-by-word file is invalid at file: it must be a JSON object with a 'words' array.",
      );
    }

    const negative = buildError(() => buildTranscriptFromWordByWord({ words: [{ text: 'a', start: -1, end: 1 }, { text: 'b', start: 2, end: 1 }] }));
    expect(negative.code).toBe('WORDS_INVALID');
    expect(negative.message).toBe("The word-by-word file has no usable word: word 0 ('a') skipped: its start time (-1 s) is negative (and 1 more skipped).");

    expect(buildError(() => buildTranscriptFromWordByWord({ words: [] })).message).toBe('The word-by-word file has no words.');
    expect(buildError(() => buildTranscriptFromWordByWord({ words: [{ text: ' ', start: 0, end: 1 }] })).message).toBe('The word-by-word file has no words.');
  });

  it('refuses more entries than a transcript may hold as TOO_MANY_WORDS', () => {
    const words = Array.from({ length: MAX_TRANSCRIPT_WORDS + 1 }, (_, i) => ({ text: 'w', start: i, end: i + 1 }));
    expect(buildError(() => buildTranscriptFromWordByWord({ words })).code).toBe('TOO_MANY_WORDS');
  });

  it('lists at most 100 warnings, then one that counts the rest', () => {
    const words = [{ text: 'ok', start: 0, end: 1 }, ...Array.from({ length: 500 }, (_, i) => ({ text: `w${i}`, start: 2, end: 1 }))];
    const t = buildTranscriptFromWordByWord({ words });
    expect(t.warnings).toHaveLength(101);
    expect(t.warnings[100]).toEqual({ line: null, message: '… and 400 more warnings' });
  });
});

describe('warnings of a built transcript', () => {
  it('has none for a clean file', () => {
    expect(buildTranscriptFromVtt(fixture('youtube-auto.vtt')).warnings).toEqual([]);
    expect(buildTranscriptFromWordByWord({ words: [{ text: 'a', start: 0, end: 1 }] }).warnings).toEqual([]);
  });

  it("carries the subtitle file's warnings, with their lines, and builds from the cues that are left", () => {
    const t = buildTranscriptFromVtt(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello there\n\n00:00:00..000 --> 00:00:03.000\nlost\n\n00:00:04.000 --> 00:00:03.500\nlate words\n',
    );
    expect(texts(t.words)).toEqual(['hello', 'there', 'late', 'words']);
    // the cue that ends before it starts keeps its words, at its start
    expect(timing(t.words).slice(2)).toEqual([
      ['late', 4, 4],
      ['words', 4, 4],
    ]);
    expect(t.warnings).toEqual([
      { line: 6, message: "cue at line 6 skipped: timestamp '00:00:00..000' is not valid (the milliseconds need exactly three digits)" },
      { line: 9, message: 'cue at line 9 ends (00:00:03.500) before it starts (00:00:04.000): kept with its start as its end' },
    ]);
    expectConsistent(t);
  });

  it('refuses a subtitle file with no usable cue as VTT_INVALID, with the line of the first problem', () => {
    const error = buildError(() => buildTranscriptFromVtt('WEBVTT\n\n0000:00.000 --> 00:00:01.000\na\n'));
    expect(error.code).toBe('VTT_INVALID');
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^The subtitle file has no usable cue: cue at line 3 skipped: timestamp '0000:00\.000' is not valid/);
  });
});

describe('language helpers', () => {
  it('normalizes language tags', () => {
    expect(normalizeLanguageCode('en-us')).toBe('en-US');
    expect(normalizeLanguageCode('zh_hant_tw')).toBe('zh-Hant-TW');
    expect(normalizeLanguageCode('English')).toBeUndefined();
    expect(normalizeLanguageCode('und')).toBeUndefined();
    expect(normalizeLanguageCode('')).toBeUndefined();
  });

  it('knows right-to-left languages by their primary subtag', () => {
    for (const code of ['ar', 'ar-EG', 'fa', 'he', 'HE-il', 'ur', 'dv', 'ku', 'ps', 'sd', 'ae']) expect(isRtl(code)).toBe(true);
    for (const code of ['en', 'en-US', 'arn', 'fr', 'zh-Hant', '']) expect(isRtl(code)).toBe(false);
  });
});

describe('the word cap', () => {
  const ts = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
  const vttOf = (cues: number, wordsPerCue: number) =>
    `WEBVTT\n\n${Array.from({ length: cues }, (_, c) => `${ts(c * 10)} --> ${ts(c * 10 + 9)}\n${Array.from({ length: wordsPerCue }, (_, w) => `c${c}w${w}`).join(' ')}\n`).join('\n')}`;

  it('refuses captions with more words than a transcript may hold, naming both counts', () => {
    const err = buildError(() => buildTranscriptFromVtt(vttOf(MAX_TRANSCRIPT_WORDS / 100 + 1, 100)));
    expect(err.code).toBe('TOO_MANY_WORDS');
    expect(err.message).toMatch(/200,100 words; WordCut edits transcripts of up to 200,000 words/);
  });

  it('builds a transcript of exactly the cap', () => {
    expect(buildTranscriptFromVtt(vttOf(MAX_TRANSCRIPT_WORDS / 100, 100)).words).toHaveLength(MAX_TRANSCRIPT_WORDS);
  });
});
