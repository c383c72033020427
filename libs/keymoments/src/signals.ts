/**
 * Our own signals of one sentence, read from its tokens (with the parts of speech, entities and
 * sentiment the NLP library gave them): steps and instructions, quotable lines, key points,
 * figures, humour, pointing at the picture. English only; docs/KEYMOMENTS.md.
 */
import { announcementOf, closingOf, contrastOf, logisticsOf, parallelOf, type Announcement } from './structure';


/** One token of a sentence as the NLP library read it. */
export interface SentenceToken {
  /** the token's text as written */
  value: string;
  /** universal part of speech (VERB, NOUN, PRON, PUNCT, ...) */
  pos: string;
}

export interface SentenceEntity {
  value: string;
  /** the library's entity type (CARDINAL, ORDINAL, PERCENT, MONEY, DATE, ...) */
  type: string;
}

/** What the rules found in one sentence. */
export interface SentenceSignals {
  /** words (tokens that are not punctuation) */
  wordCount: number;
  /** the sentence's last punctuation: '.', '?', '!' or '' */
  terminal: '.' | '?' | '!' | '';
  /** the step marker it opens with ('First', 'Step two', 'Finally'), or null */
  stepMarker: string | null;
  /** the verb it opens with as an instruction ('open', "don't"), or null */
  imperative: string | null;
  /** 0..1: short, self-contained, general, declarative */
  quotable: number;
  /** a key-point phrase ('the key', 'remember'), or null */
  emphasis: string | null;
  /** figures it states (cardinals, percentages, money) */
  figures: string[];
  /** a humour word ('funny', 'laughed'), or null */
  humour: string | null;
  /** a phrase pointing at the picture ('as you can see'), or null */
  visual: string | null;
  /** -1..1 from the NLP library */
  sentiment: number;
  /** hesitation words (um, uh, er) */
  fillers: number;
  /** opens with a word that leans on what came before ('and', 'but', 'it', 'this') */
  leansBack: boolean;
  /** the structure it announces ('three steps', 'the one thing to remember'), or null */
  announces: Announcement | null;
  /** a greeting, sign-off or housekeeping line ('thank you for listening'), or null */
  closing: string | null;
  /** a notice of logistics (the thing it is about: 'room', 'desk'), or null */
  logistics: string | null;
  /** the words of a contrast it turns on ('not ... but', 'without ... is just'), or null */
  contrast: string | null;
  /** the word three or more of its clauses open with ('with malice ..., with charity ...'), or null */
  parallel: string | null;
}

const ORDINAL_OPENERS = new Set([
  'first', 'firstly', 'second', 'secondly', 'third', 'thirdly', 'fourth', 'fourthly', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth',
  'next', 'then', 'finally', 'lastly',
]);
const NUMBER_WORDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']);
/** words skipped before a step marker or an instruction's verb */
const LEAD_INS = new Set(['so', 'and', 'now', 'okay', 'ok', 'alright', 'right', 'well', 'just', 'please', 'um', 'uh', 'er', 'ah', 'then']);
/** verbs that open instructions even when the tagger reads them as nouns or adjectives */
const INSTRUCTION_VERBS = new Set([
  'add', 'adjust', 'ask', 'avoid', 'begin', 'book', 'break', 'bring', 'build', 'buy', 'call', 'change', 'check', 'choose', 'clean', 'clear',
  'click', 'close', 'compare', 'connect', 'copy', 'count', 'create', 'cut', 'decide', 'define', 'delete', 'download', 'drag', 'drink', 'drop',
  'eat', 'edit', 'enable', 'enter', 'fill', 'find', 'finish', 'fix', 'focus', 'follow', 'forget', 'get', 'give', 'go', 'grab', 'heat', 'hit',
  'hold', 'install', 'keep', 'leave', 'let', 'list', 'listen', 'load', 'look', 'make', 'mark', 'measure', 'mix', 'move', 'note', 'open',
  'order', 'paste', 'pay', 'pick', 'place', 'plan', 'plug', 'pour', 'practice', 'practise', 'prepare', 'press', 'print', 'pull', 'push',
  'put', 'read', 'record', 'remember', 'remove', 'repeat', 'replace', 'restart', 'review', 'run', 'save', 'schedule', 'search', 'select',
  'send', 'set', 'share', 'show', 'sign', 'skip', 'sleep', 'sort', 'speak', 'spend', 'start', 'stay', 'stop', 'switch', 'take', 'talk',
  'tap', 'tell', 'test', 'think', 'track', 'try', 'turn', 'type', 'update', 'upload', 'use', 'wait', 'walk', 'wash', 'watch', 'write',
]);
/** negative or universal advice: "Don't ...", "Never ...", "Always ..." followed by a verb */
const ADVICE_OPENERS = new Set(["don't", 'dont', 'do', 'never', 'always', "let's", 'lets']);
/** openers that make a sentence lean on the one before it */
const LEANING_OPENERS = new Set([
  'and', 'but', 'so', 'because', 'or', 'which', 'that', 'this', 'these', 'those', 'it', "it's", 'its', 'they', "they're", 'he', 'she', 'them',
  'also', 'then', 'well', 'um', 'uh', 'yeah', 'ok', 'okay', 'like', 'plus', 'anyway', 'there', 'here',
]);
const WE = new Set(['we', "we're", "we've", 'us', 'our']);
const PAST = new Set(['was', 'were', 'had', 'did', 'went', 'got', 'came', 'said', 'took', 'made', 'left', 'sat', 'saw', 'told', 'thought', 'knew', 'found', 'gave']);
const FIRST_PERSON = new Set(['i', "i'm", "i've", "i'd", "i'll", 'me', 'my', 'mine', 'myself']);
/** words that make a line general: it claims something about everyone or always */
const GENERAL_WORDS = new Set([
  'always', 'never', 'every', 'everything', 'everyone', 'nothing', 'nobody', 'no', 'all', 'only', 'best', 'better', 'worst', 'true', 'real',
  'more', 'less', 'is', 'are', 'becomes', 'beats', 'wins', 'loses', 'starts', 'ends',
]);
const FILLERS = new Set(['um', 'uh', 'er', 'ah', 'erm', 'hmm', 'mmm', 'uhm']);
const KEY_POINT_PHRASES = [
  'the key', 'the secret', 'the most important', 'most importantly', 'the biggest', 'the truth', "here's the thing", 'here is the thing',
  'remember', 'never forget', 'game changer', 'changed everything', 'the one thing', 'the real reason', 'the problem is', 'the point is',
  'what matters', 'believe it or not', 'it turns out', 'turns out', 'surprising', 'shocking', 'incredible', 'the mistake', 'biggest mistake',
  'nobody tells you', 'no one tells you', 'the bottom line', 'in fact', 'the lesson',
];
const HUMOUR_WORDS = new Set(['funny', 'hilarious', 'joke', 'joking', 'laugh', 'laughed', 'laughing', 'haha', 'lol', 'ridiculous', 'absurd', 'silly', 'weird', 'crazy']);
const VISUAL_PHRASES = [
  'as you can see', 'you can see', 'take a look', 'look at this', 'look at that', 'look at the', 'watch this', 'on the screen', 'on screen',
  'this chart', 'this graph', 'this picture', 'this image', 'this slide', 'this diagram', 'right here', 'over here', 'shown here', 'see here',
  'see how', 'notice how', 'this shot', 'this view',
];
const FIGURE_TYPES = new Set(['PERCENT', 'MONEY']);
/** entities that tie a line to one occasion */
const SPECIFIC_TYPES = new Set(['CARDINAL', 'ORDINAL', 'DATE', 'TIME', 'DURATION', 'MONEY', 'PERCENT', 'MEASURE']);

const isWord = (t: SentenceToken): boolean => t.pos !== 'PUNCT' && t.pos !== 'SYM' && /[\p{L}\p{N}]/u.test(t.value);
const lower = (t: SentenceToken | undefined): string => (t ? t.value.toLowerCase().replace(/’/g, "'") : '');

/** "First", "Step two", "Number 3", "1." at the start (after lead-ins), or null. */
function stepMarkerOf(words: SentenceToken[]): { marker: string; next: number } | null {
  let i = 0;
  while (i < words.length - 1 && LEAD_INS.has(lower(words[i])) && lower(words[i]) !== 'then') i++;
  // "The first is ...", "The second ..." name items of a list as well
  if (lower(words[i]) === 'the' && ORDINAL_OPENERS.has(lower(words[i + 1])) && !/^(next|then)$/.test(lower(words[i + 1]))) {
    return { marker: `${words[i]!.value} ${words[i + 1]!.value}`, next: i + 2 };
  }
  const w = lower(words[i]);
  const n = lower(words[i + 1]);
  if ((w === 'step' || w === 'number' || w === 'tip' || w === 'rule') && (NUMBER_WORDS.has(n) || /^\d+$/.test(n))) {
    return { marker: `${words[i]!.value} ${words[i + 1]!.value}`, next: i + 2 };
  }
  if (w === 'after' && n === 'that') return { marker: `${words[i]!.value} ${words[i + 1]!.value}`, next: i + 2 };
  if (ORDINAL_OPENERS.has(w) || /^\d+(st|nd|rd|th)?$/.test(w)) {
    // "First of all", "Next up" read the same; "Then" only opens a step when an instruction follows
    let next = i + 1;
    if (lower(words[next]) === 'of' && lower(words[next + 1]) === 'all') next += 2;
    if (lower(words[next]) === 'up') next++;
    return { marker: words[i]!.value, next };
  }
  return null;
}

/** The verb an instruction opens with, from position `from` (lead-ins and 'you' skipped), or null. */
function imperativeAt(words: SentenceToken[], from: number, terminal: string): string | null {
  if (terminal === '?') return null;
  let i = from;
  while (i < words.length && LEAD_INS.has(lower(words[i]))) i++;
  const first = words[i];
  if (!first) return null;
  const w = lower(first);
  if (ADVICE_OPENERS.has(w)) {
    const next = words[i + 1];
    // "Do it", "Never give up", "Always test", "Let's start"; not "Do you ..."
    if (next && lower(next) !== 'you' && lower(next) !== 'we' && lower(next) !== 'they' && (next.pos === 'VERB' || next.pos === 'AUX' || INSTRUCTION_VERBS.has(lower(next)) || w === "let's" || w === 'lets')) {
      return `${first.value} ${next.value}`;
    }
    return null;
  }
  if (INSTRUCTION_VERBS.has(w)) {
    const next = lower(words[i + 1]);
    // "Open the file" rather than "Open source is ..." or "Check it's ..." read as a statement
    if (next === 'is' || next === 'are' || next === 'was' || next === 'were') return null;
    return first.value;
  }
  if (first.pos === 'VERB' && !/(ing|ed)$/.test(w) && !/[^s]s$/.test(w)) return first.value;
  return null;
}

/** 0..1: how well a sentence stands alone as a quote: short, general, not a story, plain. */
function quotability(words: SentenceToken[], terminal: string, stepMarker: string | null, leansBack: boolean, fillers: number, specifics: number, turn: string | null): number {
  const n = words.length;
  if (n < 4 || n > (turn ? 24 : 16) || terminal === '?' || terminal === '' || stepMarker) return 0;
  // up to ten words reads as a line; longer ones fade out
  const length = n <= 10 ? 1 : 1 - (Math.min(n - 10, 6) / 6) * 0.7;
  const general = words.filter((w) => GENERAL_WORDS.has(lower(w))).length;
  const halves = new Set(words.slice(0, Math.ceil(n / 2)).map(lower).filter((w) => w.length > 3));
  const repeats = words.slice(Math.ceil(n / 2)).some((w) => halves.has(lower(w)));
  const contrast = turn !== null || (words.some((w) => lower(w) === 'not' || lower(w) === "isn't") && words.some((w) => lower(w) === 'but' || lower(w) === 'than'));
  // the tagger often misreads the verbs of short lines ('matter', 'shape'), so the shape counts words, not verbs
  const shape = Math.min(1, 0.55 + 0.15 * Math.min(general, 2) + (repeats ? 0.15 : 0) + (contrast ? 0.2 : 0) + (n <= 8 ? 0.15 : 0) + (words.some((w) => w.pos === 'ADJ') ? 0.05 : 0));
  const person = words.some((w) => FIRST_PERSON.has(lower(w))) ? 0.6 : words.some((w) => WE.has(lower(w))) ? 0.8 : 1;
  // a story told in the past is an anecdote, not a line that holds in general
  const story = words.some((w) => PAST.has(lower(w)) || (w.pos === 'VERB' && /[^e]ed$/.test(lower(w)))) ? 0.5 : 1;
  // 'the this and the that', times and counts tie a line to one occasion
  const definite = words.filter((w) => lower(w) === 'the').length >= 2 ? 0.8 : 1;
  const plain = specifics > 0 ? 0.7 : 1;
  const tidy = fillers > 0 ? 0.5 : 1;
  return Math.max(0, Math.min(1, length * shape * person * story * definite * plain * tidy * (leansBack ? 0.35 : 1)));
}

const findPhrase = (text: string, phrases: readonly string[]): string | null => {
  for (const p of phrases) {
    const at = text.indexOf(p);
    if (at >= 0 && (at === 0 || !/[a-z]/.test(text[at - 1]!)) && !/[a-z]/.test(text[at + p.length] ?? '')) return p;
  }
  return null;
};

/** Every signal of one sentence. */
export function sentenceSignals(tokens: readonly SentenceToken[], entities: readonly SentenceEntity[], sentiment: number): SentenceSignals {
  const words = tokens.filter(isWord);
  const lastPunct = [...tokens].reverse().find((t) => !isWord(t) && /[.?!]/.test(t.value));
  const lastWord = [...tokens].reverse().find(isWord);
  const tail = lastPunct && tokens.lastIndexOf(lastPunct) > tokens.lastIndexOf(lastWord!) ? lastPunct.value : '';
  const terminal: SentenceSignals['terminal'] = tail.includes('?') ? '?' : tail.includes('!') ? '!' : tail.includes('.') ? '.' : '';
  const opened = stepMarkerOf(words);
  const imperative = imperativeAt(words, opened ? opened.next : 0, terminal);
  // "Then" and "Next" open a step only when an instruction follows ("Then it broke" is a story)
  const step = opened && /^(then|next)$/i.test(opened.marker) && !imperative ? null : opened;
  const fillers = words.filter((w) => FILLERS.has(lower(w))).length;
  let opener = 0;
  while (opener < words.length - 1 && FILLERS.has(lower(words[opener]))) opener++;
  const leansBack = LEANING_OPENERS.has(lower(words[opener]));
  // percentages, money, and counts written in digits or with a magnitude ('3 million'); not 'two' or 'a few minutes'
  const figures = entities.filter((e) => FIGURE_TYPES.has(e.type) || (e.type === 'CARDINAL' && /\d{2,}|hundred|thousand|million|billion|percent/i.test(e.value))).map((e) => e.value);
  const text = ` ${words.map(lower).join(' ')} `;
  const humour = words.map(lower).find((w) => HUMOUR_WORDS.has(w)) ?? null;
  const spoken = words.map((w) => w.value).join(' ');
  const announces = announcementOf(spoken);
  const closing = closingOf(spoken);
  // a step of a list is not a notice, whatever it is about
  const logistics = step ? null : logisticsOf(spoken);
  const contrast = contrastOf(spoken);
  // clauses are told apart by the punctuation tokens between them
  const parallel = parallelOf(tokens.map((x) => x.value).join(' '));
  // a sign-off or a notice is never a line to quote nor an instruction to clip
  const flat = closing !== null || logistics !== null;
  return {
    wordCount: words.length,
    terminal,
    stepMarker: step ? step.marker : null,
    imperative: flat ? null : imperative,
    quotable: flat || announces ? 0 : quotability(words, terminal, step?.marker ?? null, leansBack, fillers, entities.filter((e) => SPECIFIC_TYPES.has(e.type)).length, contrast),
    emphasis: announces?.kind === 'key' ? announces.phrase : flat ? null : findPhrase(text, KEY_POINT_PHRASES),
    figures,
    humour,
    visual: findPhrase(text, VISUAL_PHRASES),
    sentiment,
    fillers,
    leansBack,
    announces,
    closing,
    logistics,
    contrast,
    parallel,
  };
}
