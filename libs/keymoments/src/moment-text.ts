/** A key moment in its own words: its title, description and the reasons it was chosen. */
import type { KeyMoment } from '@wordcut/contracts';
import { ACTIONABLE, ENTERTAINING, HIGH_IMPACT, QUOTABLE, QUOTE_LINE, STRONG_FEELING, VISUAL, type SentenceTable } from './sentence-table';
import { SWING_FROM, type Evidence } from './window-score';

const FILLER_WORD = /^(um+|uh+|er+|ah+|erm|hmm+|mmm+|uhm)[,.!?]*$/i;
const STEP_PREFIX = /^((and|so|now|okay|ok|then)[,]?\s+)*((step|number|tip|rule)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)|first(ly)?( of all)?|second(ly)?|third(ly)?|fourth|fifth|sixth|seventh|eighth|ninth|tenth|next( up)?|then|finally|lastly|after that|\d+(st|nd|rd|th)?)\b[,:.)]?\s*/i;
const LEAD_IN = /^((and|but|so|well|okay|ok|now|also|like|just|yeah)[,]?\s+)+/i;

const FILLER = '(?:um+|uh+|er+|ah+|erm|hmm+|mmm+|uhm)';
/** a hesitation set off by commas ('and, uh, happy'): both commas go with it */
const FILLER_BETWEEN_COMMAS = new RegExp(`,\\s*${FILLER},\\s*`, 'gi');

/** A sentence's words without hesitations, its lead-ins ('and', 'so') and, for steps, the step marker. */
export function cleanText(text: string, dropStep: boolean): string {
  let out = text
    .replace(FILLER_BETWEEN_COMMAS, ' ')
    .split(/\s+/)
    .filter((w) => !FILLER_WORD.test(w))
    .join(' ')
    .replace(/\s+([,;:.!?])/g, '$1')
    .replace(/([,;:])(?:\s*[,;:])+/g, '$1')
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

/** A title as a clean phrase: no stray punctuation or quotes at its ends, a capital first. */
export function tidyTitle(title: string): string {
  const t = title
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:.!\-–—'"“”‘’]+/, '')
    .replace(/[\s,;:\-–—'"“”‘’]+$/, '')
    .replace(/([^.!?…])[.]$/, '$1');
  return t.length > 0 ? t[0]!.toUpperCase() + t.slice(1) : t;
}

/** Title, description and reasons of the window i..j, in its own words. */
export function describeWindow(t: SentenceTable, i: number, j: number, ev: Evidence): Pick<KeyMoment, 'title' | 'description' | 'reasons'> {
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
      // an announced list is named by its announcement ('Booking a room takes three steps')
      const lead = t.wholeStructures(i, j).find((r) => r.kind === 'list' && !sig(r.first).stepMarker)?.first;
      key = lead ?? actions[0] ?? i;
      title = keyPhrase(cleanText(t.sentences[key]!.text, lead === undefined), lead === undefined ? 8 : 12);
      const announced = t.wholeStructures(i, j).find((r) => r.kind === 'list' && !sig(r.first).stepMarker);
      const markers = steps.map((k) => `‘${sig(k).stepMarker}’`).join(', ');
      if (announced) {
        const a = sig(announced.first).announces;
        reasons.push(`Announces ${a?.phrase ?? 'a list'} and lists them: ${markers || 'one after another'} (“${clip(plainSentence(t.sentences[announced.first]!.text, false), 70)}”)`);
      } else if (steps.length > 1) reasons.push(`Lists ${plural(steps.length, 'step')}: ${markers}`);
      const verbs = range.filter((k) => sig(k).imperative && !sig(k).stepMarker).map((k) => `‘${sig(k).imperative}’`);
      if (verbs.length > 0) reasons.push(`${plural(verbs.length, 'instruction')} opening with a verb (${verbs.slice(0, 4).join(', ')})`);
      if (actions.length >= 2) description = `${actions.slice(0, 5).map((k) => plainSentence(t.sentences[k]!.text, true)).join('; ')}.`;
      break;
    }
    case QUOTABLE: {
      key = range.reduce((a, b) => (t.quotability[b]! > t.quotability[a]! ? b : a));
      title = keyPhrase(cleanText(t.sentences[key]!.text, false), 14);
      const line = quote(cleanText(t.sentences[key]!.text, false));
      if (t.keyLine[key]) reasons.push(`Introduced as the thing to remember (‘${sig(key - 1).announces?.phrase ?? sig(key - 2).announces?.phrase ?? 'remember'}’): ${line}`);
      else if (sig(key).contrast) reasons.push(`A contrast (‘${sig(key).contrast}’): ${line}`);
      else if (sig(key).parallel) reasons.push(`Parallel clauses, each opening with ‘${sig(key).parallel}’: ${line}`);
      else if (t.quotability[key]! >= QUOTE_LINE) reasons.push(`A line that stands on its own: ${line}`);
      const more = range.filter((k) => k !== key && t.quotability[k]! >= QUOTE_LINE).length;
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
      if (emph !== undefined) reasons.push(`A key point (‘${sig(emph).emphasis}’): ${quote(cleanText(t.sentences[emph]!.text, false))}`);
      const parallel = range.find((k) => sig(k).parallel);
      if (parallel !== undefined) reasons.push(`Parallel clauses, each opening with ‘${sig(parallel).parallel}’: ${quote(cleanText(t.sentences[parallel]!.text, false))}`);
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
  if (ev.categories[ev.category]! < 0.15) reasons.push('No strong signal of its own: whole sentences that make up the five moments');
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
  return { title: tidyTitle(title || clip(cleanText(ss[0]!.text, false), 60)), description: clip(description, 240), reasons };
}
