import fc from 'fast-check';
import { assEscape, assTime, buildAssScript, buildCaptionCues, type CaptionCue, type CaptionLayout, type CaptionWord } from './captions';

/** Words one after another: each `dur` long, `gap` apart. */
function words(texts: string[], dur = 0.3, gap = 0.05, from = 0): CaptionWord[] {
  return texts.map((text, i) => ({ text, start: from + i * (dur + gap), end: from + i * (dur + gap) + dur }));
}

const text = (cues: readonly CaptionCue[]): string[] => cues.map((c) => c.lines.join(' / '));

describe('buildCaptionCues', () => {
  it('puts a short phrase in one cue spanning its words', () => {
    const ws = words(['Hello', 'world']);
    expect(buildCaptionCues(ws)).toEqual([{ start: 0, end: ws[1]!.end, lines: ['Hello world'] }]);
  });

  it('returns no cues for no words, blank words or words with broken times', () => {
    expect(buildCaptionCues([])).toEqual([]);
    expect(
      buildCaptionCues([
        { text: '  ', start: 0, end: 1 },
        { text: '', start: 1, end: 2 },
        { text: 'backwards', start: 3, end: 2 },
        { text: 'nan', start: NaN, end: 4 },
      ]),
    ).toEqual([]);
  });

  it('trims words and skips the unusable ones between good ones', () => {
    const cues = buildCaptionCues([
      { text: ' one ', start: 0, end: 0.3 },
      { text: '\t', start: 0.3, end: 0.4 },
      { text: 'two', start: 0.5, end: 0.4 },
      { text: 'three\n', start: 0.5, end: 0.8 },
    ]);
    expect(cues).toEqual([{ start: 0, end: 0.8, lines: ['one three'] }]);
  });

  it('starts a new cue after a pause longer than maxGapSec', () => {
    const cues = buildCaptionCues([
      { text: 'before', start: 0, end: 0.5 },
      { text: 'still', start: 1.25, end: 1.6 }, // 0.75 s pause: within the 0.8 s limit
      { text: 'after', start: 2.5, end: 3 }, // 0.9 s pause
    ]);
    expect(cues).toEqual([
      { start: 0, end: 1.6, lines: ['before still'] },
      { start: 2.5, end: 3, lines: ['after'] },
    ]);
    expect(text(buildCaptionCues(words(['a', 'b'], 0.3, 0.25), { maxGapSec: 0.2 }))).toEqual(['a', 'b']);
  });

  it('starts a new cue when the next word would make the cue longer than maxCueSec', () => {
    const ws = words(['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8'], 0.9, 0.1); // one word a second
    const cues = buildCaptionCues(ws, { maxCueSec: 3 });
    expect(text(cues)).toEqual(['w1 w2 w3', 'w4 w5 w6', 'w7 w8']);
    for (const c of cues) expect(c.end - c.start).toBeLessThanOrEqual(3);
  });

  it('wraps at maxLineChars into at most maxLines lines, then starts a new cue', () => {
    const ws = words('the quick brown fox jumps over the lazy dog and then runs far away from here'.split(' '), 0.2, 0);
    const cues = buildCaptionCues(ws, { maxLineChars: 20, maxLines: 2, maxCueSec: 100 });
    expect(cues.map((c) => c.lines)).toEqual([
      ['the quick brown fox', 'jumps over the lazy'],
      ['dog and then runs', 'far away from here'],
    ]);
    // the second cue starts with the word that did not fit
    expect(cues[1]!.start).toBe(ws[8]!.start);
  });

  it('keeps a word longer than a line on a line of its own', () => {
    const cues = buildCaptionCues(words(['a', 'incomprehensibilities', 'b']), { maxLineChars: 10 });
    expect(cues.map((c) => c.lines)).toEqual([['a', 'incomprehensibilities'], ['b']]);
  });

  it('ends a cue at a sentence end once it holds enough text (60 % of a line)', () => {
    // "This sentence is long enough." is 29 characters >= 25.2
    const cues = buildCaptionCues(words(['This', 'sentence', 'is', 'long', 'enough.', 'Next', 'one.']));
    expect(text(cues)).toEqual(['This sentence is long enough.', 'Next one.']);
    // closing quotes and brackets after the stop count as the sentence end too
    expect(text(buildCaptionCues(words(['He', 'said', 'it', 'was', 'all', 'finished!"', 'Then', 'left'])))).toEqual([
      'He said it was all finished!"',
      'Then left',
    ]);
  });

  it('keeps a short sentence together with what follows', () => {
    expect(text(buildCaptionCues(words(['Hi.', 'How', 'are', 'you?'])))).toEqual(['Hi. How are you?']);
  });

  it('clips a cue to the start of the next so cues never overlap', () => {
    const cues = buildCaptionCues(
      [
        { text: 'aaaa', start: 0, end: 2 },
        { text: 'bbbb', start: 1, end: 3 }, // does not fit on the one 5-character line: new cue at 1 s
      ],
      { maxLineChars: 5, maxLines: 1 },
    );
    expect(cues).toEqual([
      { start: 0, end: 1, lines: ['aaaa'] },
      { start: 1, end: 3, lines: ['bbbb'] },
    ]);
  });

  const wordChar = fc.constantFrom(...'abcdefghijXYZ0123456789.,!?\'"(){}[]\\éü'.split(''));
  const arbWordText = fc.oneof(
    { weight: 8, arbitrary: fc.string({ unit: wordChar, minLength: 1, maxLength: 14 }) },
    { weight: 1, arbitrary: fc.string({ unit: wordChar, minLength: 15, maxLength: 70 }) }, // longer than most lines
  );
  /** Words in time order (strictly increasing starts); they may overlap the next word, as ASR words do. */
  const arbWords: fc.Arbitrary<CaptionWord[]> = fc
    .array(
      fc.record({
        text: arbWordText,
        pad: fc.constantFrom('', ' ', '\t'),
        delta: fc.double({ min: 0.01, max: 2, noNaN: true }),
        dur: fc.double({ min: 0.01, max: 1.5, noNaN: true }),
      }),
      { maxLength: 60 },
    )
    .map((specs) => {
      let t = 0;
      return specs.map((s) => {
        t += s.delta;
        return { text: `${s.pad}${s.text}${s.pad}`, start: t, end: t + s.dur };
      });
    });
  const arbLayout: fc.Arbitrary<Required<CaptionLayout>> = fc.record({
    maxLineChars: fc.integer({ min: 5, max: 60 }),
    maxLines: fc.integer({ min: 1, max: 3 }),
    maxGapSec: fc.double({ min: 0.05, max: 2, noNaN: true }),
    maxCueSec: fc.double({ min: 0.5, max: 10, noNaN: true }),
  });

  it('shows every word once, in order, in cues that never overlap', () => {
    fc.assert(
      fc.property(arbWords, arbLayout, (ws, layout) => {
        const cues = buildCaptionCues(ws, layout);
        expect(cues.flatMap((c) => c.lines).join(' ')).toBe(ws.map((w) => w.text.trim()).join(' '));
        cues.forEach((c, i) => {
          expect(c.end).toBeGreaterThan(c.start);
          const next = cues[i + 1];
          if (next) expect(c.end).toBeLessThanOrEqual(next.start);
        });
      }),
    );
  });

  it('keeps lines within maxLineChars (unless one word is longer) and cues within maxLines', () => {
    fc.assert(
      fc.property(arbWords, arbLayout, (ws, layout) => {
        for (const c of buildCaptionCues(ws, layout)) {
          expect(c.lines.length).toBeGreaterThanOrEqual(1);
          expect(c.lines.length).toBeLessThanOrEqual(layout.maxLines);
          for (const line of c.lines) {
            expect(line.length).toBeGreaterThan(0);
            if (line.length > layout.maxLineChars) expect(line).not.toContain(' ');
          }
        }
      }),
    );
  });

  it('times each cue from its first word, within maxCueSec unless its first word is longer, without long pauses inside', () => {
    fc.assert(
      fc.property(arbWords, arbLayout, (ws, layout) => {
        const cues = buildCaptionCues(ws, layout);
        let i = 0;
        for (const c of cues) {
          const n = c.lines.join(' ').split(' ').length; // generated words hold no spaces
          const mine = ws.slice(i, i + n);
          i += n;
          expect(c.start).toBe(mine[0]!.start);
          expect(c.end).toBeLessThanOrEqual(Math.max(...mine.map((w) => w.end)));
          // later words never push the cue past maxCueSec (the first word alone may be longer)
          expect(c.end - c.start).toBeLessThanOrEqual(Math.max(layout.maxCueSec, mine[0]!.end - mine[0]!.start) + 1e-9);
          let end = mine[0]!.end;
          for (const w of mine.slice(1)) {
            expect(w.start - end).toBeLessThanOrEqual(layout.maxGapSec);
            end = Math.max(end, w.end);
          }
        }
        expect(i).toBe(ws.length);
      }),
    );
  });
});

describe('assTime', () => {
  it.each([
    // H:MM:SS.cc
    [0, '0:00:00.00'],
    [1.5, '0:00:01.50'],
    [61.25, '0:01:01.25'],
    [3723.456, '1:02:03.46'],
    [36000, '10:00:00.00'],
    // to the nearest centisecond, carrying into seconds, minutes and hours
    [0.004, '0:00:00.00'],
    [0.006, '0:00:00.01'],
    [59.996, '0:01:00.00'],
    [3599.999, '1:00:00.00'],
    // negative times clamp to 0
    [-3, '0:00:00.00'],
  ])('formats %p s as %p', (seconds, text) => {
    expect(assTime(seconds)).toBe(text);
  });

  it('reads back as the time rounded to centiseconds, and keeps order', () => {
    const parse = (s: string): number => {
      const m = /^(\d+):([0-5]\d):([0-5]\d)\.(\d\d)$/.exec(s);
      if (!m) throw new Error(`bad ASS time ${s}`);
      return Number(m[1]) * 360000 + Number(m[2]) * 6000 + Number(m[3]) * 100 + Number(m[4]);
    };
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200_000, noNaN: true }), fc.double({ min: 0, max: 200_000, noNaN: true }), (a, b) => {
        expect(parse(assTime(a))).toBe(Math.round(a * 100));
        if (a <= b) expect(parse(assTime(a))).toBeLessThanOrEqual(parse(assTime(b)));
      }),
    );
  });
});

describe('assEscape', () => {
  it('turns override braces into parentheses', () => {
    expect(assEscape('{\\b1}bold{\\b0}')).toBe('(\\\u200bb1)bold(\\\u200bb0)');
    expect(assEscape('{\\pos(0,0)}x')).toBe('(\\\u200bpos(0,0))x');
  });

  it('breaks backslash escapes (\\N, \\n, \\h) with a zero-width space', () => {
    expect(assEscape('a\\Nb')).toBe('a\\\u200bNb');
    expect(assEscape('a\\nb\\h')).toBe('a\\\u200bnb\\\u200bh');
    expect(assEscape('\\\\')).toBe('\\\u200b\\\u200b');
  });

  it('turns line breaks into spaces and leaves other text alone', () => {
    expect(assEscape('one\ntwo\r\nthree')).toBe('one two three');
    expect(assEscape('Ça va? 100% «sûr» — 😀')).toBe('Ça va? 100% «sûr» — 😀');
    expect(assEscape('')).toBe('');
  });

  it('neutralises every brace, backslash and newline, and changes nothing else', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('{', '}', '\\', '\n', '\r\n', 'N', 'h'), fc.string({ maxLength: 3 })) }), (s) => {
        const e = assEscape(s);
        expect(e).not.toMatch(/[{}\n]/);
        expect(e).not.toMatch(/\\(?!\u200b)/);
        const undone = e.replace(/\\\u200b/g, '\\');
        expect(undone).toBe(s.replace(/\{/g, '(').replace(/\}/g, ')').replace(/\r?\n/g, ' '));
      }),
    );
  });

  // BUG (reported to the lead): libass splits script lines at a lone CR as well as at LF, and stops
  // reading the script at a NUL, so either in a word lets text break out of its Dialogue line
  // (a new event, or every later caption lost). Remove `.failing` once assEscape handles them.
  it('removes lone carriage returns too', () => {
    expect(assEscape('one\rtwo')).not.toContain('\r');
  });

  it('removes NULs too', () => {
    expect(assEscape('one\u0000two')).not.toContain('\u0000');
  });

  it('keeps one Dialogue line per cue even when the text holds a lone CR', () => {
    const script = buildAssScript([{ start: 0, end: 1, lines: ['x\rDialogue: 0,0:00:00.00,9:00:00.00,Default,,0,0,0,,injected'] }], 1920, 1080);
    // libass's line splitting: CR or LF
    expect(script.split(/[\r\n]/).filter((l) => l.startsWith('Dialogue:'))).toHaveLength(1);
  });
});

describe('buildAssScript', () => {
  const cues: CaptionCue[] = [
    { start: 0.5, end: 2.25, lines: ['Hello {world}', 'second line'] },
    { start: 2.25, end: 4, lines: ['C:\\path'] },
  ];

  it('writes a 1080p script: header, style scaled to the frame, one Dialogue per cue', () => {
    expect(buildAssScript(cues, 1920, 1080).split('\n')).toEqual([
      '[Script Info]',
      'ScriptType: v4.00+',
      'PlayResX: 1920',
      'PlayResY: 1080',
      'WrapStyle: 2',
      'ScaledBorderAndShadow: yes',
      '',
      '[V4+ Styles]',
      'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
      // the default look (boxed, medium, bottom): size 5.2 % of 1080 = 56, a box (border style 3) 22 % of
      // that = 12 around the text, no shadow, bottom-centred, margins 6 % / 14 % (above a player's controls)
      'Style: Default,DejaVu Sans,56,&H00FFFFFF,&H00FFFFFF,&H40000000,&H80000000,1,0,0,0,100,100,0,0,3,12,0,2,115,115,151,1',
      '',
      '[Events]',
      'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
      'Dialogue: 0,0:00:00.50,0:00:02.25,Default,,0,0,0,,Hello (world)\\Nsecond line',
      'Dialogue: 0,0:00:02.25,0:00:04.00,Default,,0,0,0,,C:\\\u200bpath',
      '',
    ]);
  });

  it('uses the given font and never a font smaller than 12 or an outline thinner than 1', () => {
    const script = buildAssScript([], 160, 90, 'Noto Sans');
    expect(script).toContain('PlayResX: 160\nPlayResY: 90\n');
    expect(script).toContain('Style: Default,Noto Sans,12,&H00FFFFFF,&H00FFFFFF,&H40000000,&H80000000,1,0,0,0,100,100,0,0,3,3,0,2,10,10,13,1');
    expect(script).not.toContain('Dialogue:');
    expect(script.endsWith('Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n')).toBe(true);
  });

  it('scales the style with a story frame', () => {
    // 5.2 % of 1920 = 99.84 -> 100; box 22; margins 64.8 -> 65 and 268.8 -> 269
    expect(buildAssScript([], 1080, 1920)).toContain(',DejaVu Sans,100,&H00FFFFFF,&H00FFFFFF,&H40000000,&H80000000,1,0,0,0,100,100,0,0,3,22,0,2,65,65,269,1');
  });

  it('draws each look: classic outlined, bold large and yellow, at the top or in the middle', () => {
    const style = (look: Parameters<typeof buildAssScript>[4]) => buildAssScript([], 1920, 1080, 'DejaVu Sans', look).split('\n').find((l) => l.startsWith('Style:'));
    // classic, small, top: 4.2 % = 45, outline 4, shadow 2, top-centred (8) 10 % from the top
    expect(style({ preset: 'classic', size: 'small', position: 'top' })).toBe('Style: Default,DejaVu Sans,45,&H00FFFFFF,&H00FFFFFF,&H00000000,&H80000000,1,0,0,0,100,100,0,0,1,4,2,8,115,115,108,1');
    // bold, large, middle: 6.6 % x 1.15 = 82, yellow (BGR), outline 10, shadow 5, centred (5), no vertical margin
    expect(style({ preset: 'bold', size: 'large', position: 'middle' })).toBe('Style: Default,DejaVu Sans,82,&H0000E5FF,&H0000E5FF,&H00000000,&H80000000,1,0,0,0,100,100,0,0,1,10,5,5,115,115,0,1');
  });

  it('emits one Dialogue line per cue with the escaped lines joined by \\N, for any cue text', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            start: fc.double({ min: 0, max: 5000, noNaN: true }),
            len: fc.double({ min: 0.01, max: 10, noNaN: true }),
            lines: fc.array(fc.string({ unit: fc.oneof(fc.constantFrom('{', '}', '\\', '\n', ','), fc.string({ maxLength: 2 })), minLength: 1 }), {
              minLength: 1,
              maxLength: 3,
            }),
          }),
          { maxLength: 10 },
        ),
        (specs) => {
          const cs = specs.map((s) => ({ start: s.start, end: s.start + s.len, lines: s.lines }));
          const dialogue = buildAssScript(cs, 1920, 1080)
            .split('\n')
            .filter((l) => l.startsWith('Dialogue:'));
          expect(dialogue).toEqual(cs.map((c) => `Dialogue: 0,${assTime(c.start)},${assTime(c.end)},Default,,0,0,0,,${c.lines.map(assEscape).join('\\N')}`));
          for (const d of dialogue) expect(d.slice(d.indexOf(',,0,0,0,,') + 9)).not.toMatch(/[{}]/);
        },
      ),
    );
  });
});
