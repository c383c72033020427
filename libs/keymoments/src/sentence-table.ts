/**
 * The per-sentence signal table key moments are scored from: each signal as a number per sentence,
 * with prefix sums so any window of sentences is summed at once, and the categories it is read in.
 */
import { KEY_MOMENT_MAX_SECONDS, type KeyMomentCategory } from '@wordcut/contracts';
import { voicedLevels, type EnergyLevels } from './audio';
import type { Sentence } from './sentences';

/** The categories, in the order of the indices below and of Evidence.categories. */
export const CATEGORIES: readonly KeyMomentCategory[] = ['Actionable', 'Quotable', 'Entertaining', 'High-impact', 'Visual'];
export const ACTIONABLE = 0;
export const QUOTABLE = 1;
export const ENTERTAINING = 2;
export const HIGH_IMPACT = 3;
export const VISUAL = 4;

/** Step sentences this many sentences apart or fewer belong to one list. */
const LIST_GAP = 3;
/** A line this quotable or more counts as a quote. */
export const QUOTE_LINE = 0.5;
/** A sentence at least this strongly felt (sentiment, -1..1) counts as strong feeling. */
export const STRONG_FEELING = 0.6;

/** The middle value (NaN for none). */
const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

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
export class SentenceTable {
  readonly n: number;
  private readonly prefix: Record<'steps' | 'imps' | 'quotes' | 'emph' | 'figs' | 'strong' | 'excl' | 'answered' | 'humour' | 'visual' | 'cuts' | 'words' | 'fillers' | 'loudSum' | 'loudDur' | 'flatWords' | 'turns' | 'parallels', Float64Array>;
  /** scene changes per second over the whole talk (0 without scenes) */
  readonly cutRate: number;
  /** dB above this talk's median sentence, NaN without audio */
  readonly louder: Float64Array;
  readonly medianLoud: number;
  readonly medianRate: number;
  /** first word to last, in seconds */
  readonly talkSeconds: number;
  readonly answered: Uint8Array;
  /** lists of steps: step sentences at most LIST_GAP sentences apart, first to last */
  readonly lists: Array<{ first: number; last: number }> = [];
  /** the list each sentence is in, or -1 */
  readonly list: Int32Array;
  /** lists and key lines with the sentence that announces them: announcement (or first step) to end */
  readonly structures: Array<{ first: number; last: number; kind: 'list' | 'key' }> = [];
  /** 1 for the line a 'the one thing to remember' announces */
  readonly keyLine: Uint8Array;
  /** how well each sentence stands alone as a quote (a key line counts as a strong one) */
  readonly quotability: Float64Array;

  constructor(readonly sentences: readonly Sentence[], energy: EnergyLevels | null | undefined, scenes: readonly number[] | null | undefined) {
    const n = (this.n = sentences.length);
    const mk = () => new Float64Array(n + 1);
    this.prefix = { steps: mk(), imps: mk(), quotes: mk(), emph: mk(), figs: mk(), strong: mk(), excl: mk(), answered: mk(), humour: mk(), visual: mk(), cuts: mk(), words: mk(), fillers: mk(), loudSum: mk(), loudDur: mk(), flatWords: mk(), turns: mk(), parallels: mk() };
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
    // an announcement ('three steps to follow') leads its list when the list starts within two sentences
    for (const r of this.lists) {
      const lead = [r.first - 1, r.first - 2].find((k) => k >= 0 && sentences[k]!.signals.announces?.kind === 'list' && this.list[k] === -1);
      this.structures.push({ first: lead ?? r.first, last: r.last, kind: 'list' });
    }
    this.keyLine = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      if (sentences[k]!.signals.announces?.kind !== 'key') continue;
      // the line announced: the next statement, unless the announcement holds it ('remember this: ...')
      const line = [k + 1, k + 2].find((a) => a < n && sentences[a]!.signals.wordCount >= 3 && sentences[a]!.signals.terminal !== '?');
      if (line === undefined || sentences[k]!.signals.wordCount > 14) continue;
      this.keyLine[line] = 1;
      this.structures.push({ first: k, last: line, kind: 'key' });
    }
    this.quotability = Float64Array.from(sentences, (x, k) => Math.max(x.signals.quotable, this.keyLine[k] ? 0.9 : 0));
    const loud = energy ? voicedLevels(energy, sentences) : sentences.map(() => null);
    const voiced = loud.filter((x): x is number => x !== null);
    this.medianLoud = median(voiced);
    this.louder = Float64Array.from(loud, (x) => (x === null ? NaN : x - this.medianLoud));
    this.medianRate = median(sentences.filter((s) => s.signals.wordCount >= 3 && s.end > s.start).map((s) => s.signals.wordCount / (s.end - s.start)));
    const cuts = scenesPerSentence(sentences, scenes);
    const talk = (this.talkSeconds = n > 0 ? sentences[n - 1]!.end - sentences[0]!.start : 0);
    this.cutRate = talk > 0 ? cuts.reduce((a, b) => a + b, 0) / talk : 0;
    const p = this.prefix;
    sentences.forEach((s, k) => {
      const g = s.signals;
      const add = (key: keyof typeof p, v: number) => (p[key][k + 1] = p[key][k]! + v);
      add('steps', g.stepMarker ? 1 : 0);
      add('imps', g.imperative && !g.stepMarker ? 1 : 0);
      add('quotes', this.quotability[k]! >= QUOTE_LINE ? 1 : 0);
      add('emph', g.emphasis || this.keyLine[k] ? 1 : 0);
      add('flatWords', g.closing || g.logistics ? g.wordCount : 0);
      add('turns', g.contrast ? 1 : 0);
      add('parallels', g.parallel ? 1 : 0);
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

  /**
   * true when sentences i..j hold part of a list (with its announcement) or of an announced key
   * line, not all of it, and all of it would fit a moment
   */
  cutsList(i: number, j: number): boolean {
    return this.structures.some(
      (r) => r.first <= j && i <= r.last && (r.first < i || r.last > j) && this.sentences[r.last]!.end - this.sentences[r.first]!.start <= KEY_MOMENT_MAX_SECONDS,
    );
  }

  /** the structures sentences i..j hold whole */
  wholeStructures(i: number, j: number): Array<{ first: number; last: number; kind: 'list' | 'key' }> {
    return this.structures.filter((r) => r.first >= i && r.last <= j);
  }

  sum(key: keyof SentenceTable['prefix'], i: number, j: number): number {
    return this.prefix[key][j + 1]! - this.prefix[key][i]!;
  }
}
