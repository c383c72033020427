/** Window scoring: what a window of whole sentences shows, per category, and the score it earns. */
import { HIGH_IMPACT, QUOTE_LINE, type SentenceTable } from './sentence-table';

/** Sentiment swing inside a moment that starts to count. */
export const SWING_FROM = 0.8;
/** Scene changes a window has beyond 1.5 times the talk's own rate, less this many, count as visual evidence. */
const CUTS_BEYOND_USUAL = 1;

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
