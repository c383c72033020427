/**
 * Over 400 lines: the signal table, window scoring, choice and description of key moments read the
 * same per-sentence prefix sums; sentences and signals already live in sentences.ts and signals.ts.
 */
import {
  KEY_MOMENT_MAX_SECONDS,
  KEY_MOMENT_MIN_SECONDS,
  KEY_MOMENTS_MAX,
  KEY_MOMENTS_MIN,
  type KeyMoment,
  type KeyMomentCategory,
} from '@wordcut/contracts';
import { voicedLevels, type EnergyLevels } from './audio';
import { findSentences, type Sentence, type TimedWord } from './sentences';

/** Bumped whenever the rules change what they answer: stored moments of older rules are not served. */
export const KEY_MOMENT_RULES_VERSION = 2;

export interface KeyMomentInput {
  /** the transcript's words, in time order */
  words: readonly TimedWord[];
  /** the frame-energy series of the media, when it has audio */
  energy?: EnergyLevels | null;
  /** the times (s) where the picture changes scene, when known */
  scenes?: readonly number[] | null;
}

/** A moment as the rules find it: the answer's fields but its id, and the words it spans. */
export interface FoundMoment extends Omit<KeyMoment, 'id'> {
  firstWord: number;
  lastWord: number;
}

const CATEGORIES: readonly KeyMomentCategory[] = ['Actionable', 'Quotable', 'Entertaining', 'High-impact', 'Visual'];
const ACTIONABLE = 0;
const QUOTABLE = 1;
const ENTERTAINING = 2;
const HIGH_IMPACT = 3;
const VISUAL = 4;

/** Step sentences this many sentences apart or fewer belong to one list. */
const LIST_GAP = 3;
/** A line this quotable or more counts as a quote. */
const QUOTE_LINE = 0.5;
/** A sentence at least this strongly felt (sentiment, -1..1) counts as strong feeling. */
const STRONG_FEELING = 0.6;
/** Sentiment swing inside a moment that starts to count. */
const SWING_FROM = 0.8;
/** Moments kept after the fifth only while their score is at least this share of the best one's. */
const KEEP_SHARE = 0.5;
/** Each moment of a category already chosen scales the next one's score by this while choosing. */
const SAME_CATEGORY_FACTOR = 0.85;
/** Scene changes a window has beyond 1.5 times the talk's own rate, less this many, count as visual evidence. */
const CUTS_BEYOND_USUAL = 1;
/** Evidence a category needs before it claims a moment of its own ahead of the others. */
const OWN_MOMENT_EVIDENCE = 0.3;

/** 1 - e^(-x/k): evidence that grows with its signals and saturates. */
const saturate = (x: number, k: number): number => 1 - Math.exp(-x / k);
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Engagement percentage of a score: a flat moment about 13 %, one clear signal about 60 %, a strong one 90 % and more. */
export function engagementOf(score: number): number {
  return Math.max(1, Math.min(99, Math.round(100 / (1 + Math.exp(-5.5 * (score - 0.35))))));
}

/** How many scene changes fall in each sentence's time: from its start to the next sentence's start. */
function scenesPerSentence(sentences: readonly Sentence[], scenes: readonly number[] | null | undefined): number[] {
  const out = sentences.map(() => 0);
  if (!scenes || scenes.length === 0 || sentences.length === 0) return out;
  const times = [...scenes].sort((a, b) => a - b);
  let s = 0;
  for (const time of times) {
    if (time < sentences[0]!.start || time > sentences[sentences.length - 1]!.end) continue;
    while (s + 1 < sentences.length && sentences[s + 1]!.start <= time) s++;
    out[s]!++;
  }
  return out;
}

/** Per-sentence signals as numbers, with prefix sums for windows. */
class SentenceTable {
  readonly n: number;
  private readonly prefix: Record<'steps' | 'imps' | 'quotes' | 'emph' | 'figs' | 'strong' | 'excl' | 'answered' | 'humour' | 'visual' | 'cuts' | 'words' | 'fillers' | 'loudSum' | 'loudDur', Float64Array>;
  /** scene changes per second over the whole talk (0 without scenes) */
  readonly cutRate: number;
  /** dB above this talk's median sentence, NaN without audio */
  readonly louder: Float64Array;
  readonly medianLoud: number;
  readonly medianRate: number;
  readonly answered: Uint8Array;
  /** lists of steps: step sentences at most LIST_GAP sentences apart, first to last */
  readonly lists: Array<{ first: number; last: number }> = [];
  /** the list each sentence is in, or -1 */
  readonly list: Int32Array;

  constructor(readonly sentences: readonly Sentence[], energy: EnergyLevels | null | undefined, scenes: readonly number[] | null | undefined) {
    const n = (this.n = sentences.length);
    const mk = () => new Float64Array(n + 1);
    this.prefix = { steps: mk(), imps: mk(), quotes: mk(), emph: mk(), figs: mk(), strong: mk(), excl: mk(), answered: mk(), humour: mk(), visual: mk(), cuts: mk(), words: mk(), fillers: mk(), loudSum: mk(), loudDur: mk() };
    this.answered = new Uint8Array(n);
    // a question is answered when one of the next two sentences is a statement
    for (let k = 0; k < n; k++) {
      if (sentences[k]!.signals.terminal !== '?') continue;
      for (let a = k + 1; a <= Math.min(n - 1, k + 2); a++) {
        if (sentences[a]!.signals.terminal !== '?' && sentences[a]!.signals.wordCount >= 3) {
          this.answered[k] = 1;
          break;
        }
      }
    }
    this.list = new Int32Array(n).fill(-1);
    let open: { first: number; last: number } | null = null;
    for (let k = 0; k < n; k++) {
      if (!sentences[k]!.signals.stepMarker) continue;
      if (open && k - open.last <= LIST_GAP) open.last = k;
      else {
        if (open && open.last > open.first) this.lists.push(open);
        open = { first: k, last: k };
      }
    }
    if (open && open.last > open.first) this.lists.push(open);
    this.lists.forEach((r, x) => this.list.fill(x, r.first, r.last + 1));
    const loud = energy ? voicedLevels(energy, sentences) : sentences.map(() => null);
    const voiced = loud.filter((x): x is number => x !== null);
    this.medianLoud = median(voiced);
    this.louder = Float64Array.from(loud, (x) => (x === null ? NaN : x - this.medianLoud));
    this.medianRate = median(sentences.filter((s) => s.signals.wordCount >= 3 && s.end > s.start).map((s) => s.signals.wordCount / (s.end - s.start)));
    const cuts = scenesPerSentence(sentences, scenes);
    const talk = n > 0 ? sentences[n - 1]!.end - sentences[0]!.start : 0;
    this.cutRate = talk > 0 ? cuts.reduce((a, b) => a + b, 0) / talk : 0;
    const p = this.prefix;
    sentences.forEach((s, k) => {
      const g = s.signals;
      const add = (key: keyof typeof p, v: number) => (p[key][k + 1] = p[key][k]! + v);
      add('steps', g.stepMarker ? 1 : 0);
      add('imps', g.imperative && !g.stepMarker ? 1 : 0);
      add('quotes', g.quotable >= QUOTE_LINE ? 1 : 0);
      add('emph', g.emphasis ? 1 : 0);
      add('figs', g.figures.length > 0 ? 1 : 0);
      add('strong', Math.abs(g.sentiment) >= STRONG_FEELING ? 1 : 0);
      add('excl', g.terminal === '!' ? 1 : 0);
      add('answered', this.answered[k]!);
      add('humour', g.humour ? 1 : 0);
      add('visual', g.visual ? 1 : 0);
      add('cuts', cuts[k]!);
      add('words', g.wordCount);
      add('fillers', g.fillers);
      const d = Math.max(0, s.end - s.start);
      const l = this.louder[k]!;
      add('loudSum', Number.isNaN(l) ? 0 : l * d);
      add('loudDur', Number.isNaN(l) ? 0 : d);
    });
  }

  /** true when sentences i..j hold part of a list of steps, not all of it, and all of it would fit a moment */
  cutsList(i: number, j: number): boolean {
    const a = this.list[i]!;
    const b = this.list[j]!;
    const cuts = (run: number, inside: (r: { first: number; last: number }) => boolean) =>
      run >= 0 && inside(this.lists[run]!) && this.sentences[this.lists[run]!.last]!.end - this.sentences[this.lists[run]!.first]!.start <= KEY_MOMENT_MAX_SECONDS;
    return cuts(a, (r) => r.first < i) || cuts(b, (r) => r.last > j);
  }

  sum(key: keyof SentenceTable['prefix'], i: number, j: number): number {
    return this.prefix[key][j + 1]! - this.prefix[key][i]!;
  }
}

/** What a window of sentences i..j shows, per category. */
interface Evidence {
  /** evidence per category, 0..1 (CATEGORIES order) */
  categories: number[];
  category: number;
  score: number;
  louderDb: number;
  rateRatio: number;
}

function evaluate(t: SentenceTable, i: number, j: number, maxQuote: number, swing: number): Evidence {
  const count = j - i + 1;
  const steps = t.sum('steps', i, j);
  const imps = t.sum('imps', i, j);
  const quotes = t.sum('quotes', i, j);
  const emph = t.sum('emph', i, j);
  const figs = t.sum('figs', i, j);
  const strong = t.sum('strong', i, j);
  const excl = t.sum('excl', i, j);
  const answered = t.sum('answered', i, j);
  const humour = t.sum('humour', i, j);
  const visual = t.sum('visual', i, j);
  const cuts = t.sum('cuts', i, j);
  const words = t.sum('words', i, j);
  const loudDur = t.sum('loudDur', i, j);
  const louderDb = loudDur > 0 ? t.sum('loudSum', i, j) / loudDur : 0;
  const span = t.sentences[j]!.end - t.sentences[i]!.start;
  const extraCuts = Math.max(0, cuts - 1.5 * t.cutRate * span - CUTS_BEYOND_USUAL);
  const rateRatio = t.medianRate > 0 && span > 0 ? words / span / t.medianRate : 1;
  const louder = Math.min(1.5, Math.max(0, louderDb / 3));
  const faster = Math.min(1, Math.max(0, (rateRatio - 1) * 2));
  const categories = [
    saturate(steps + 0.6 * imps + (steps >= 2 ? 0.8 : 0), 1.6),
    // a weak line is hardly a quote: below QUOTE_LINE it counts for little
    maxQuote >= QUOTE_LINE ? Math.min(1, maxQuote + (quotes >= 2 ? 0.1 : 0)) : maxQuote >= 0.3 ? maxQuote * maxQuote : 0,
    saturate(Math.max(0, swing - SWING_FROM) * 1.5 + excl * 0.5 + answered * 0.6 + humour * 0.9, 1.5),
    saturate(emph * 0.9 + figs * 0.4 + strong * 0.25 + louder * 0.5 + faster * 0.3, 1.6),
    0.9 * saturate(visual + 0.5 * extraCuts, 1.2),
  ];
  const focus = [(steps + imps) / count, quotes / count, Math.min(count, excl + answered + humour + strong) / count, Math.min(count, emph + figs + strong) / count, Math.min(count, visual + extraCuts) / count];
  // no evidence at all: High-impact, with a reason saying no signal stood out
  let category = HIGH_IMPACT;
  for (let c = 0; c < categories.length; c++) if (categories[c]! > categories[category]!) category = c;
  // a tight moment beats the same signals in a longer one; a start that leans on what came before, and hesitations, cost a little
  let score = categories[category]! * (0.55 + 0.45 * Math.min(1, focus[category]! * 2));
  if (t.sentences[i]!.signals.leansBack) score *= 0.9;
  // a moment that cuts a list of steps in two tells half of it
  if (t.cutsList(i, j)) score *= 0.6;
  score *= 1 - Math.min(0.2, t.sum('fillers', i, j) / Math.max(1, words));
  return { categories, category, score, louderDb, rateRatio };
}

interface Candidate {
  i: number;
  j: number;
  score: number;
  category: number;
  evidence: number;
  /** the shortest window from i that is long enough */
  shortest: boolean;
}

const FILLER_WORD = /^(um+|uh+|er+|ah+|erm|hmm+|mmm+|uhm)[,.!?]*$/i;
const STEP_PREFIX = /^((and|so|now|okay|ok|then)[,]?\s+)*((step|number|tip|rule)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)|first(ly)?( of all)?|second(ly)?|third(ly)?|fourth|fifth|sixth|seventh|eighth|ninth|tenth|next( up)?|then|finally|lastly|after that|\d+(st|nd|rd|th)?)\b[,:.)]?\s*/i;
const LEAD_IN = /^((and|but|so|well|okay|ok|now|also|like|just|yeah)[,]?\s+)+/i;

/** A sentence's words without hesitations, its lead-ins ('and', 'so') and, for steps, the step marker. */
function cleanText(text: string, dropStep: boolean): string {
  let out = text
    .split(/\s+/)
    .filter((w) => !FILLER_WORD.test(w))
    .join(' ')
    .trim();
  if (dropStep) out = out.replace(STEP_PREFIX, '');
  out = out.replace(LEAD_IN, '');
  return out.length > 0 ? out[0]!.toUpperCase() + out.slice(1) : out;
}

/** Words a cut phrase does not end on. */
const DANGLING = new Set(['a', 'an', 'the', 'at', 'of', 'to', 'in', 'on', 'for', 'from', 'with', 'and', 'or', 'but', 'by', 'that', 'your', 'my', 'our', 'their', 'its', 'this', 'is', 'are', 'was', 'were', 'until', 'as', 'into']);

/** A key phrase of a sentence: the sentence when short, else its first clause, else its first words up to a content word. */
function keyPhrase(text: string, maxWords = 10): string {
  const words = text.split(/\s+/).filter(Boolean);
  let phrase: string;
  if (words.length <= maxWords) phrase = words.join(' ');
  else {
    const clause = words.findIndex((w, k) => k >= 3 && k < maxWords && /[,;:–—]$/.test(w));
    if (clause >= 0) phrase = words.slice(0, clause + 1).join(' ');
    else {
      let end = maxWords;
      while (end > 3 && DANGLING.has(words[end - 1]!.toLowerCase().replace(/[^a-z]/g, ''))) end--;
      phrase = `${words.slice(0, end).join(' ').replace(/[,;:–—.]+$/, '')}…`;
    }
  }
  return phrase.replace(/[,;:–—.]+$/, '');
}

/** A sentence for a description: clean, without its closing full stop. */
const plainSentence = (text: string, dropStep: boolean): string => cleanText(text, dropStep).replace(/[.]+$/, '');

/** Text cut at a word boundary to at most `max` characters. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[,;:]+$/, '')}…`;
}

const quote = (text: string): string => `“${clip(text, 90)}”`;
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Title, description and reasons of the window i..j, in its own words. */
function describe(t: SentenceTable, i: number, j: number, ev: Evidence): Pick<FoundMoment, 'title' | 'description' | 'reasons'> {
  const ss = t.sentences.slice(i, j + 1);
  const sig = (k: number) => t.sentences[k]!.signals;
  const range = Array.from({ length: j - i + 1 }, (_, k) => i + k);
  const firstWhere = (p: (k: number) => boolean) => range.find(p);
  const strongest = () => range.reduce((a, b) => (Math.abs(sig(b).sentiment) > Math.abs(sig(a).sentiment) ? b : a));
  const reasons: string[] = [];
  let key: number;
  let title: string;
  let description = '';
  switch (ev.category) {
    case ACTIONABLE: {
      const steps = range.filter((k) => sig(k).stepMarker);
      const actions = range.filter((k) => sig(k).stepMarker || sig(k).imperative);
      key = actions[0] ?? i;
      title = keyPhrase(cleanText(t.sentences[key]!.text, true), 8);
      if (steps.length > 0) reasons.push(`${plural(steps.length, 'numbered step')} (${steps.map((k) => `‘${sig(k).stepMarker}’`).join(', ')})`);
      const verbs = range.filter((k) => sig(k).imperative && !sig(k).stepMarker).map((k) => `‘${sig(k).imperative}’`);
      if (verbs.length > 0) reasons.push(`${plural(verbs.length, 'instruction')} opening with a verb (${verbs.slice(0, 4).join(', ')})`);
      if (actions.length >= 2) description = `${actions.slice(0, 5).map((k) => plainSentence(t.sentences[k]!.text, true)).join('; ')}.`;
      break;
    }
    case QUOTABLE: {
      key = range.reduce((a, b) => (sig(b).quotable > sig(a).quotable ? b : a));
      title = keyPhrase(cleanText(t.sentences[key]!.text, false), 14);
      if (sig(key).quotable >= QUOTE_LINE) reasons.push(`A short, self-contained line of ${sig(key).wordCount} words: ${quote(cleanText(t.sentences[key]!.text, false))}`);
      const more = range.filter((k) => k !== key && sig(k).quotable >= QUOTE_LINE).length;
      if (more > 0) reasons.push(`${plural(more, 'more quotable line')} around it`);
      break;
    }
    case ENTERTAINING: {
      key = firstWhere((k) => t.answered[k] === 1) ?? firstWhere((k) => sig(k).terminal === '!') ?? firstWhere((k) => sig(k).humour !== null) ?? strongest();
      title = keyPhrase(cleanText(t.sentences[key]!.text, false));
      const feelings = range.map((k) => sig(k).sentiment);
      const lo = feelings.indexOf(Math.min(...feelings));
      const hi = feelings.indexOf(Math.max(...feelings));
      if (feelings[hi]! - feelings[lo]! >= SWING_FROM + 0.2) reasons.push(`The mood swings from ${lo < hi ? 'negative to positive' : 'positive to negative'}`);
      const asked = range.find((k) => t.answered[k] === 1);
      if (asked !== undefined) reasons.push(`A question, then its answer: ${quote(cleanText(t.sentences[asked]!.text, false))}`);
      const excl = range.filter((k) => sig(k).terminal === '!').length;
      if (excl > 0) reasons.push(plural(excl, 'exclamation'));
      const fun = range.find((k) => sig(k).humour);
      if (fun !== undefined) reasons.push(`Humour (‘${sig(fun).humour}’)`);
      break;
    }
    case VISUAL: {
      const pointed = firstWhere((k) => sig(k).visual !== null);
      key = pointed ?? range.reduce((best, k) => (t.sum('cuts', k, k) > t.sum('cuts', best, best) ? k : best), i);
      title = keyPhrase(cleanText(t.sentences[key]!.text, false));
      if (pointed !== undefined) reasons.push(`The speaker points at the picture (‘${sig(pointed).visual}’)`);
      const changes = t.sum('cuts', i, j);
      if (changes >= 2) reasons.push(`The picture changes ${changes} times in ${Math.round(t.sentences[j]!.end - t.sentences[i]!.start)} s (slides, cuts or a demo)`);
      break;
    }
    case HIGH_IMPACT:
    default: {
      key = firstWhere((k) => sig(k).emphasis !== null) ?? firstWhere((k) => sig(k).figures.length > 0) ?? strongest();
      title = keyPhrase(cleanText(t.sentences[key]!.text, false));
      const emph = range.find((k) => sig(k).emphasis);
      if (emph !== undefined) reasons.push(`A key point (‘${sig(emph).emphasis}’)`);
      const figures = range.flatMap((k) => sig(k).figures);
      if (figures.length > 0) reasons.push(`Figures: ${figures.slice(0, 3).join(', ')}`);
      const strong = range.filter((k) => Math.abs(sig(k).sentiment) >= STRONG_FEELING).length;
      if (strong > 0) reasons.push(`Strongly felt: ${plural(strong, 'sentence')} with marked sentiment`);
    }
  }
  if (ev.louderDb >= 1.5) reasons.push(`Spoken ${ev.louderDb.toFixed(1)} dB louder than this talk's median sentence`);
  if (ev.rateRatio >= 1.15 && t.medianRate > 0) {
    reasons.push(`Faster than this speaker's usual pace (${Math.round(ev.rateRatio * t.medianRate * 60)} vs ${Math.round(t.medianRate * 60)} words a minute)`);
  }
  if (ev.categories[ev.category]! < 0.15) reasons.push('No strong signal: a steady stretch of whole sentences that completes the list');
  if (description === '') {
    // the other sentences with the most to say, in the order spoken
    const others = range
      .filter((k) => k !== key)
      .map((k) => ({ k, weight: sig(k).wordCount * (1 + sig(k).quotable) * (sig(k).fillers > 0 ? 0.7 : 1) * (sig(k).leansBack ? 0.8 : 1) }))
      .sort((a, b) => b.weight - a.weight)
      .slice(0, 2)
      .sort((a, b) => a.k - b.k)
      .map(({ k }) => cleanText(t.sentences[k]!.text, false));
    description = others.length > 0 ? others.join(' ') : cleanText(t.sentences[key]!.text, false);
  }
  reasons.push(`${plural(ss.length, 'whole sentence')}, ${Math.round(t.sentences[j]!.end - t.sentences[i]!.start)} s`);
  return { title: title || clip(cleanText(ss[0]!.text, false), 60), description: clip(description, 240), reasons };
}

/** How many windows of at least `len` seconds fit one after the other in sentences a..b (greedy, which is optimal on a line), up to `enough`. */
function packOf(sentences: readonly Sentence[], len: number, a: number, b: number, enough: number): number {
  let count = 0;
  let from = a;
  for (let j = a; j <= b && count < enough; j++) {
    if (sentences[j]!.end - sentences[from]!.start >= len - 1e-9) {
      count++;
      from = j + 1;
    }
  }
  return count;
}

/** How many moments of at least `len` seconds fit around the `taken` ones (sentence ranges i..j), up to `enough`. */
export function momentsThatFit(sentences: readonly Sentence[], len: number, taken: ReadonlyArray<{ i: number; j: number }>, enough: number): number {
  const n = sentences.length;
  let room = 0;
  let from = 0;
  for (const x of [...taken].sort((a, b) => a.i - b.i).concat([{ i: n, j: n }])) {
    if (x.i > from) room += packOf(sentences, len, from, x.i - 1, enough - room);
    if (room >= enough) return room;
    from = x.j + 1;
  }
  return room;
}

/** 15 s, or the longest length at which `count` more moments still fit around the `taken` ones (a talk too short for them). */
export function longestMomentLength(sentences: readonly Sentence[], taken: ReadonlyArray<{ i: number; j: number }>, count: number): number {
  if (count <= 0 || momentsThatFit(sentences, KEY_MOMENT_MIN_SECONDS, taken, count) >= count) return KEY_MOMENT_MIN_SECONDS;
  let lo = 0;
  let hi = KEY_MOMENT_MIN_SECONDS;
  for (let step = 0; step < 24; step++) {
    const mid = (lo + hi) / 2;
    if (momentsThatFit(sentences, mid, taken, count) >= count) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The key moments of a transcript (and its audio's energy): 5 to 10 when the talk holds them, each
 * whole sentences lasting 15 to 60 s (shorter only as much as a talk too short for five of 15 s needs),
 * none overlapping, highest engagement first. Each category with clear evidence gets its best moment
 * first; the rest go by score.
 */
export function findKeyMoments(input: KeyMomentInput): FoundMoment[] {
  const words = input.words.filter((w) => Number.isFinite(w.start) && Number.isFinite(w.end) && w.end >= w.start);
  if (words.length === 0) return [];
  const sentences = findSentences(words);
  const t = new SentenceTable(sentences, input.energy, input.scenes);
  const n = t.n;
  const roomAround = (len: number, taken: ReadonlyArray<{ i: number; j: number }>, enough: number) => momentsThatFit(sentences, len, taken, enough);
  const longestFitting = (taken: ReadonlyArray<{ i: number; j: number }>, count: number) => longestMomentLength(sentences, taken, count);
  /** Every window of whole sentences from `minLen` to 60 s, best first (equal scores: the tighter one first). */
  const windows = (minLen: number): Candidate[] => {
    const out: Candidate[] = [];
    for (let i = 0; i < n; i++) {
      let maxQuote = 0;
      let lo = Infinity;
      let hi = -Infinity;
      let first = true;
      for (let j = i; j < n; j++) {
        const s = sentences[j]!;
        maxQuote = Math.max(maxQuote, s.signals.quotable);
        lo = Math.min(lo, s.signals.sentiment);
        hi = Math.max(hi, s.signals.sentiment);
        const span = s.end - sentences[i]!.start;
        if (span > KEY_MOMENT_MAX_SECONDS) break;
        if (span < minLen - 1e-9) continue;
        const ev = evaluate(t, i, j, maxQuote, hi - lo);
        out.push({ i, j, score: ev.score, category: ev.category, evidence: ev.categories[ev.category]!, shortest: first });
        first = false;
      }
    }
    return out.sort((a, b) => b.score - a.score || a.j - a.i - (b.j - b.i) || a.i - b.i);
  };

  const chosen: Candidate[] = [];
  const overlaps = (c: Candidate): boolean => chosen.some((x) => c.i <= x.j && x.i <= c.j);
  // first, each category with clear evidence gets its own best moment, 15 s or more (less only when five such do not fit the talk)
  let candidates = windows(longestFitting([], KEY_MOMENTS_MIN));
  const order = CATEGORIES.map((_, category) => ({ category, best: candidates.find((x) => x.category === category && x.evidence >= OWN_MOMENT_EVIDENCE) }))
    .filter((x) => x.best)
    .sort((a, b) => b.best!.score - a.best!.score);
  for (const { category } of order) {
    const pick = candidates.find((x) => x.category === category && x.evidence >= OWN_MOMENT_EVIDENCE && !overlaps(x));
    if (pick && chosen.length < KEY_MOMENTS_MAX) chosen.push(pick);
  }
  // then the best of the rest, as long as what is left still holds the five (shorter ones only when it must)
  const target = Math.min(KEY_MOMENTS_MIN, chosen.length + roomAround(0, chosen, KEY_MOMENTS_MIN));
  const fillLen = longestFitting(chosen, target - chosen.length);
  candidates = windows(fillLen);
  const fits = (c: Candidate): boolean => {
    if (overlaps(c)) return false;
    const need = target - chosen.length - 1;
    return need <= 0 || roomAround(fillLen, [...chosen, c], need) >= need;
  };
  const best = Math.max(candidates[0]?.score ?? 0, ...chosen.map((c) => c.score));
  // each moment already of a category makes the next of it count a little less, so a long talk
  // that repeats one kind of moment still shows the others it has
  const sameCategory = (c: Candidate) => chosen.filter((x) => x.category === c.category).length;
  const refused = new Set<Candidate>();
  while (chosen.length < KEY_MOMENTS_MAX) {
    let pick: Candidate | null = null;
    let pickScore = -Infinity;
    for (const c of candidates) {
      if (c.score <= pickScore) break;
      if (refused.has(c) || overlaps(c)) continue;
      const adjusted = c.score * SAME_CATEGORY_FACTOR ** sameCategory(c);
      if (adjusted > pickScore) {
        pick = c;
        pickScore = adjusted;
      }
    }
    if (!pick || (chosen.length >= KEY_MOMENTS_MIN && pick.score < best * KEEP_SHARE)) break;
    if (fits(pick)) chosen.push(pick);
    else refused.add(pick);
  }
  // too few still: the shortest windows fit where longer ones did not
  for (const c of candidates) if (c.shortest && chosen.length < target && fits(c)) chosen.push(c);

  return chosen
    .map((c) => {
      const a = sentences[c.i]!;
      const b = sentences[c.j]!;
      let maxQuote = 0;
      let lo = Infinity;
      let hi = -Infinity;
      for (let k = c.i; k <= c.j; k++) {
        maxQuote = Math.max(maxQuote, sentences[k]!.signals.quotable);
        lo = Math.min(lo, sentences[k]!.signals.sentiment);
        hi = Math.max(hi, sentences[k]!.signals.sentiment);
      }
      const ev = evaluate(t, c.i, c.j, maxQuote, hi - lo);
      return {
        ...describe(t, c.i, c.j, ev),
        category: CATEGORIES[ev.category]!,
        engagement: engagementOf(ev.score),
        startTime: round3(a.start),
        endTime: round3(b.end),
        duration: round3(b.end - a.start),
        firstWord: a.first,
        lastWord: b.last,
      };
    })
    .sort((x, y) => y.engagement - x.engagement || x.startTime - y.startTime);
}
