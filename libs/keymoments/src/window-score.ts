/** Window scoring: what a window of whole sentences shows, per category, and the score it earns. */
import { HIGH_IMPACT, QUOTABLE, QUOTE_LINE, type SentenceTable } from './sentence-table';

/** Sentiment swing inside a moment that starts to count. */
export const SWING_FROM = 0.8;
/** Scene changes a window has beyond 1.5 times the talk's own rate, less this many, count as visual evidence. */
const CUTS_BEYOND_USUAL = 1;

/** How much a window's evidence counts when it is spread thin rather than dense. */
const FOCUS_FLOOR = 0.7;
/** Moments shorter than this (s) lose up to SHORT_COST of their score, in proportion. */
const SHORT_MOMENT = 30;
const SHORT_COST = 0.5;
/** ... and at most a talk's length over this, so that a short talk still holds five moments. */
const TALK_SHARE = 6;

/** 1 - e^(-x/k): evidence that grows with its signals and saturates. */
const saturate = (x: number, k: number): number => 1 - Math.exp(-x / k);

/** What a window of sentences i..j shows, per category. */
export interface Evidence {
  /** evidence per category, 0..1 (CATEGORIES order) */
  categories: number[];
  category: number;
  score: number;
  louderDb: number;
  rateRatio: number;
}

/** The evidence and score of sentences i..j, given its most quotable line and its sentiment swing. */
export function evaluate(t: SentenceTable, i: number, j: number, maxQuote: number, swing: number): Evidence {
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
  const turns = t.sum('turns', i, j);
  const parallels = t.sum('parallels', i, j);
  // a list told whole from the sentence that announces it
  const announcedList = t.wholeStructures(i, j).some((r) => r.kind === 'list' && !t.sentences[r.first]!.signals.stepMarker);
  const loudDur = t.sum('loudDur', i, j);
  const louderDb = loudDur > 0 ? t.sum('loudSum', i, j) / loudDur : 0;
  const span = t.sentences[j]!.end - t.sentences[i]!.start;
  const extraCuts = Math.max(0, cuts - 1.5 * t.cutRate * span - CUTS_BEYOND_USUAL);
  const rateRatio = t.medianRate > 0 && span > 0 ? words / span / t.medianRate : 1;
  const louder = Math.min(1.5, Math.max(0, louderDb / 3));
  const faster = Math.min(1, Math.max(0, (rateRatio - 1) * 2));
  const categories = [
    saturate(steps + 0.6 * imps + (steps >= 2 ? 0.8 : 0) + (announcedList ? 0.8 : 0), 1.6),
    // a weak line is hardly a quote: below QUOTE_LINE it counts for little
    maxQuote >= QUOTE_LINE ? Math.min(1, maxQuote + (quotes >= 2 ? 0.1 : 0) + Math.min(0.1, 0.05 * turns)) : maxQuote >= 0.3 ? maxQuote * maxQuote : 0,
    saturate(Math.max(0, swing - SWING_FROM) * 1.5 + excl * 0.5 + answered * 0.6 + humour * 0.9, 1.5),
    saturate(emph * 0.9 + figs * 0.4 + strong * 0.25 + parallels * 0.7 + louder * 0.5 + faster * 0.3, 1.6),
    0.9 * saturate(visual + 0.5 * extraCuts, 1.2),
  ];
  const focus = [(steps + imps) / count, quotes / count, Math.min(count, excl + answered + humour + strong) / count, Math.min(count, emph + figs + strong + parallels) / count, Math.min(count, visual + extraCuts) / count];
  // no evidence at all: High-impact, with a reason saying no signal stood out
  let category = HIGH_IMPACT;
  for (let c = 0; c < categories.length; c++) if (categories[c]! > categories[category]!) category = c;
  // a tight moment beats the same signals in a longer one; a start that leans on what came before, and hesitations, cost a little
  let score = categories[category]! * (FOCUS_FLOOR + (1 - FOCUS_FLOOR) * Math.min(1, focus[category]! * 2));
  // a clip people watch through tells a passage: shorter than the talk allows, it counts a little less
  const preferred = Math.min(SHORT_MOMENT, t.talkSeconds / TALK_SHARE);
  // ... unless it is exactly an announced structure, which sets its own bounds
  const exact = t.structures.some((r) => r.first === i && r.last === j && !t.sentences[r.first]!.signals.stepMarker);
  if (!exact) score *= span >= preferred ? 1 : 1 - SHORT_COST * ((preferred - span) / preferred);
  if (t.sentences[i]!.signals.leansBack) score *= 0.9;
  // a moment that cuts a list of steps (or its announcement) in two tells half of it
  if (t.cutsList(i, j)) score *= 0.6;
  // greetings, sign-offs and notices are no one's moment: they weigh a window down by their share
  score *= 1 - 0.8 * (t.sum('flatWords', i, j) / Math.max(1, words));
  // a quote is heard best first: a moment that only arrives at its line ends where it should start
  if (category === QUOTABLE && maxQuote >= QUOTE_LINE) {
    let at = i;
    while (at < j && t.quotability[at]! < maxQuote - 1e-9) at++;
    // the line itself, or an announcement just before it, opens the moment
    const opensOnIt = at === i || (at === i + 1 && (t.keyLine[at] === 1 || t.sentences[i]!.signals.wordCount <= 12));
    if (!opensOnIt) score *= at === j ? 0.8 : 0.88;
  }
  score *= 1 - Math.min(0.2, t.sum('fillers', i, j) / Math.max(1, words));
  return { categories, category, score, louderDb, rateRatio };
}
