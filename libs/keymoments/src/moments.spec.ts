import { KEY_MOMENT_CATEGORIES } from '@wordcut/contracts';
import { engagementOf, findKeyMoments, type FoundMoment } from './moments';
import { findSentences } from './sentences';
import { APHORISM, FLAT, STEPS, timedTalk } from './talks.spec-helpers';

/** Every moment starts on a sentence's first word and ends on a sentence's last word. */
function expectOnSentences(moments: FoundMoment[], bounds: Array<{ first: number; last: number; start: number; end: number }>) {
  for (const m of moments) {
    const a = bounds.find((b) => b.first === m.firstWord);
    const z = bounds.find((b) => b.last === m.lastWord);
    expect(a).toBeDefined();
    expect(z).toBeDefined();
    expect(m.startTime).toBeCloseTo(a!.start, 3);
    expect(m.endTime).toBeCloseTo(z!.end, 3);
  }
}

function expectNoOverlap(moments: FoundMoment[]) {
  const sorted = [...moments].sort((a, b) => a.startTime - b.startTime);
  for (let k = 1; k < sorted.length; k++) expect(sorted[k]!.startTime).toBeGreaterThanOrEqual(sorted[k - 1]!.endTime);
}

/** A talk of flat sentences with a numbered list and an aphorism far apart. */
const LESSON = [...FLAT.slice(0, 5), ...STEPS, ...FLAT.slice(5, 9), APHORISM, ...FLAT.slice(9), ...FLAT.slice(0, 6), ...FLAT.slice(3, 10)];

describe('findKeyMoments', () => {
  const talk = timedTalk(LESSON);
  const moments = findKeyMoments({ words: talk.words });

  it('answers 5 to 10 moments of 15 to 60 s, on sentence boundaries, never overlapping', () => {
    expect(moments.length).toBeGreaterThanOrEqual(5);
    expect(moments.length).toBeLessThanOrEqual(10);
    for (const m of moments) {
      expect(m.duration).toBeGreaterThanOrEqual(15);
      expect(m.duration).toBeLessThanOrEqual(60);
      expect(m.duration).toBeCloseTo(m.endTime - m.startTime, 3);
      expect(KEY_MOMENT_CATEGORIES).toContain(m.category);
      expect(m.engagement).toBeGreaterThanOrEqual(0);
      expect(m.engagement).toBeLessThanOrEqual(100);
      expect(m.reasons.length).toBeGreaterThan(0);
    }
    expectOnSentences(moments, talk.bounds);
    expectNoOverlap(moments);
  });

  it('finds the numbered list as Actionable, the whole list in one moment', () => {
    const first = talk.bounds[5]!;
    const last = talk.bounds[8]!;
    const actionable = moments.find((m) => m.category === 'Actionable');
    expect(actionable).toBeDefined();
    expect(actionable!.startTime).toBeLessThanOrEqual(first.start + 1e-6);
    expect(actionable!.endTime).toBeGreaterThanOrEqual(last.end - 1e-6);
    expect(actionable!.title).toBe('Open the settings page from the menu…');
    expect(actionable!.reasons[0]).toBe('Lists 4 steps: ‘First’, ‘Second’, ‘Third’, ‘Finally’');
    expect(actionable!.description).toContain('Choose the export tab and look for the format list');
  });

  it('finds the aphorism as Quotable, titled with the line itself', () => {
    const line = talk.bounds[13]!;
    const quotable = moments.find((m) => m.category === 'Quotable');
    expect(quotable).toBeDefined();
    expect(quotable!.startTime).toBeLessThanOrEqual(line.start + 1e-6);
    expect(quotable!.endTime).toBeGreaterThanOrEqual(line.end - 1e-6);
    expect(quotable!.title).toBe('Simple tools beat clever tools every single time');
    expect(quotable!.reasons[0]).toBe('A line that stands on its own: “Simple tools beat clever tools every single time.”');
  });

  it('ranks the list and the aphorism above the flat stretches', () => {
    const flat = moments.filter((m) => m.category !== 'Actionable' && m.category !== 'Quotable');
    const top = moments.filter((m) => m.category === 'Actionable' || m.category === 'Quotable');
    for (const f of flat) for (const t of top) expect(t.engagement).toBeGreaterThan(f.engagement);
    expect(moments[0]!.engagement).toBeGreaterThanOrEqual(60);
    expect(moments).toEqual([...moments].sort((a, b) => b.engagement - a.engagement || a.startTime - b.startTime));
  });

  it('writes titles and descriptions from the moment’s own words', () => {
    for (const m of moments) {
      const own = new Set(talk.words.slice(m.firstWord, m.lastWord + 1).map((w) => w.text.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '')));
      for (const text of [m.title, m.description]) {
        const words = text.toLowerCase().split(/\s+/).map((w) => w.replace(/[^\p{L}\p{N}']/gu, '')).filter(Boolean);
        expect(words.length).toBeGreaterThan(0);
        for (const w of words) expect(own).toContain(w);
      }
    }
  });

  it('answers nothing for no words', () => {
    expect(findKeyMoments({ words: [] })).toEqual([]);
  });
});

describe('signals on constructed talks', () => {
  it('finds a question answered and a swing of mood as Entertaining', () => {
    const talk = timedTalk([
      ...FLAT.slice(0, 6),
      'Why would anyone spend a whole weekend fixing a broken old radio?',
      'Because it was the best and happiest weekend I have had in years!',
      'I was furious and miserable when it failed, and then it worked and I laughed!',
      ...FLAT.slice(6, 12),
    ]);
    const moments = findKeyMoments({ words: talk.words });
    const fun = moments.find((m) => m.category === 'Entertaining');
    expect(fun).toBeDefined();
    expect(fun!.startTime).toBeLessThanOrEqual(talk.bounds[6]!.start + 1e-6);
    expect(fun!.endTime).toBeGreaterThanOrEqual(talk.bounds[8]!.end - 1e-6);
    expect(fun!.title).toBe('Why would anyone spend a whole weekend fixing a broken…');
    expect(fun!.reasons.join(' ')).toContain('A question, then its answer');
    expectNoOverlap(moments);
  });

  it('finds a key point with figures as High-impact', () => {
    const talk = timedTalk([...FLAT.slice(0, 6), 'Here is the thing: forty percent of the budget went to a single supplier.', 'The most important lesson is that nobody checked the contract.', ...FLAT.slice(6, 12)]);
    const impact = findKeyMoments({ words: talk.words }).find((m) => m.category === 'High-impact');
    expect(impact).toBeDefined();
    expect(impact!.startTime).toBeLessThanOrEqual(talk.bounds[6]!.start + 1e-6);
    expect(impact!.reasons.join(' ')).toMatch(/A key point/);
  });

  it('finds the speaker pointing at the picture as Visual', () => {
    const talk = timedTalk([...FLAT.slice(0, 6), 'As you can see on the screen, the line drops sharply after the first week.', 'Look at this curve right here at the bottom of the chart.', ...FLAT.slice(6, 12)]);
    const visual = findKeyMoments({ words: talk.words }).find((m) => m.category === 'Visual');
    expect(visual).toBeDefined();
    expect(visual!.reasons[0]).toBe('The speaker points at the picture (‘as you can see’)');
  });

  it('finds a stretch where the picture keeps changing (slides) as Visual, and says so', () => {
    const talk = timedTalk([...FLAT, ...FLAT]);
    // one change now and then over the talk, and six in a row while sentences 14 to 16 are read
    const slides = talk.bounds.slice(14, 17);
    const from = slides[0]!.start;
    const to = slides[2]!.end;
    const scenes = [talk.bounds[3]!.start + 1, talk.bounds[9]!.start + 1, ...Array.from({ length: 6 }, (_, k) => from + ((to - from) * (k + 0.5)) / 6), talk.bounds[21]!.start + 1];
    const moments = findKeyMoments({ words: talk.words, scenes });
    const visual = moments.find((m) => m.category === 'Visual');
    expect(visual).toBeDefined();
    expect(visual!.startTime).toBeLessThanOrEqual(from + 0.01);
    expect(visual!.endTime).toBeGreaterThanOrEqual(to - 0.01);
    expect(visual!.reasons.join(' ')).toMatch(/The picture changes \d+ times/);
    // the same talk without scenes has no Visual moment, and evenly spread cuts make none either
    expect(findKeyMoments({ words: talk.words }).some((m) => m.category === 'Visual')).toBe(false);
    const end = talk.bounds[talk.bounds.length - 1]!.end;
    const even = Array.from({ length: 40 }, (_, k) => (end * (k + 0.5)) / 40);
    expect(findKeyMoments({ words: talk.words, scenes: even }).some((m) => m.category === 'Visual')).toBe(false);
  });

  it('hears a louder, faster stretch from the energy series', () => {
    const sentences = [...FLAT, ...FLAT];
    const talk = timedTalk(sentences);
    const end = talk.words[talk.words.length - 1]!.end + 1;
    const fps = 100;
    const levels = new Uint8Array(Math.ceil(end * fps));
    // speech at about -30 dBFS, the room at -90; sentences 14 to 16 spoken 8 dB louder
    for (const w of talk.words) for (let f = Math.floor(w.start * fps); f < Math.ceil(w.end * fps); f++) levels[f] = 195;
    for (let f = 0; f < levels.length; f++) if (levels[f] === 0) levels[f] = 75;
    const loud = talk.bounds.slice(14, 17);
    for (const b of loud) for (let f = Math.floor(b.start * fps); f < Math.ceil(b.end * fps); f++) if (levels[f] === 195) levels[f] = 211;
    const moments = findKeyMoments({ words: talk.words, energy: { framesPerSecond: fps, levels } });
    const top = moments[0]!;
    expect(top.category).toBe('High-impact');
    expect(top.startTime).toBeLessThanOrEqual(loud[1]!.start);
    expect(top.endTime).toBeGreaterThanOrEqual(loud[1]!.end);
    expect(top.reasons.join(' ')).toMatch(/Spoken \d+\.\d dB louder than this talk's median sentence/);
  });

  it('makes moments shorter only when the video is too short for five of 15 s', () => {
    const talk = timedTalk([...FLAT.slice(0, 3), STEPS[0]!, STEPS[1]!, ...FLAT.slice(3, 5), APHORISM, FLAT[5]!]);
    const span = talk.words[talk.words.length - 1]!.end - talk.words[0]!.start;
    expect(span).toBeLessThan(75);
    const moments = findKeyMoments({ words: talk.words });
    expect(moments.length).toBe(5);
    expect(moments.map((m) => m.category)).toEqual(expect.arrayContaining(['Actionable', 'Quotable']));
    for (const m of moments) expect(m.duration).toBeLessThan(15);
    expectOnSentences(moments, talk.bounds);
    expectNoOverlap(moments);
  });

  it('splits a transcript without punctuation at its longest pauses', () => {
    const words = Array.from({ length: 600 }, (_, k) => ({ text: ['we', 'went', 'to', 'the', 'market', 'and', 'bought', 'some', 'bread'][k % 9]!, start: k * 0.4 + Math.floor(k / 30) * 0.8, end: k * 0.4 + Math.floor(k / 30) * 0.8 + 0.3 }));
    const sentences = findSentences(words);
    for (const s of sentences) expect(s.last - s.first + 1).toBeLessThanOrEqual(45);
    expect(sentences.every((s, k) => k === 0 || s.first === sentences[k - 1]!.last + 1)).toBe(true);
    const moments = findKeyMoments({ words });
    expect(moments.length).toBeGreaterThanOrEqual(5);
    for (const m of moments) expect(m.duration).toBeLessThanOrEqual(60);
    expectNoOverlap(moments);
  });
});

describe('findSentences', () => {
  it('covers every word once, in sentences that end where the punctuation does', () => {
    const talk = timedTalk([...STEPS, APHORISM, 'Is that clear?', 'Yes!']);
    const sentences = findSentences(talk.words);
    expect(sentences.map((s) => [s.first, s.last])).toEqual(talk.bounds.map((b) => [b.first, b.last]));
    expect(sentences[0]!.signals.stepMarker).toBe('First');
    expect(sentences[0]!.signals.imperative).toBe('open');
    expect(sentences[4]!.signals.quotable).toBeGreaterThanOrEqual(0.5);
    expect(sentences[5]!.signals.terminal).toBe('?');
    expect(sentences[6]!.signals.terminal).toBe('!');
  });

  it('reads a long transcript a chunk at a time with the same sentences', () => {
    const lines = Array.from({ length: 400 }, (_, k) => FLAT[k % FLAT.length]!);
    const talk = timedTalk(lines);
    const sentences = findSentences(talk.words);
    expect(sentences.map((s) => [s.first, s.last])).toEqual(talk.bounds.map((b) => [b.first, b.last]));
  });
});

describe('engagementOf', () => {
  it('maps scores to a percentage that grows with them', () => {
    expect(engagementOf(0)).toBe(13);
    expect(engagementOf(0.35)).toBe(50);
    expect(engagementOf(0.9)).toBeGreaterThanOrEqual(95);
    expect(engagementOf(5)).toBe(99);
  });
});

describe('a long transcript', () => {
  it('analyses 30,000 words within the time budget, with 10 moments at most', () => {
    const lines = Array.from({ length: 2200 }, (_, k) => (k % 97 === 40 ? STEPS : k % 89 === 10 ? [APHORISM] : [FLAT[k % FLAT.length]!])).flat();
    const talk = timedTalk(lines);
    expect(talk.words.length).toBeGreaterThan(30_000);
    // CPU time of this process (a neighbour's load does not count)
    const cpu = process.cpuUsage();
    const moments = findKeyMoments({ words: talk.words });
    const { user, system } = process.cpuUsage(cpu);
    expect((user + system) / 1000).toBeLessThan(6_000);
    expect(moments.length).toBe(10);
    expect(moments.filter((m) => m.category === 'Actionable').length).toBeGreaterThan(0);
    // the list repeats all through the talk, yet the quote gets more than the one moment its category is owed
    expect(moments.filter((m) => m.category === 'Quotable').length).toBeGreaterThan(1);
    expectOnSentences(moments, talk.bounds);
    expectNoOverlap(moments);
  });
});

describe('odd words', () => {
  it('covers every word once whatever the words are: contractions, abbreviations, symbols, emoji, empty texts', () => {
    const vocabulary = ["don't", 'I’m', 'U.S.', 'e.g.', '$5', '...', '?!', '—', '🙂', '', 'Dr.', 'café', '3.5%', 'well,', '"quoted"', '(aside)', 'end.', 'Why?', 'yes!', 'co-op'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const words = Array.from({ length: 3000 }, (_, k) => ({ text: vocabulary[Math.floor(next() * vocabulary.length)]!, start: k * 0.4, end: k * 0.4 + 0.3 }));
    const sentences = findSentences(words);
    expect(sentences[0]!.first).toBe(0);
    expect(sentences[sentences.length - 1]!.last).toBe(words.length - 1);
    for (let k = 1; k < sentences.length; k++) expect(sentences[k]!.first).toBe(sentences[k - 1]!.last + 1);
    const moments = findKeyMoments({ words });
    expect(moments.length).toBeGreaterThanOrEqual(5);
    expectNoOverlap(moments);
  });
});
