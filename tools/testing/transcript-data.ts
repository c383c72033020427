/**
 * Synthetic transcript data (pure, deterministic for a seed): a WebVTT file that reads like a talk
 * (sentences of varied length, pauses, some hesitations and discourse markers) for @wordcut/transcript's
 * buildTranscriptFromVtt, and the word edits a client sends. Used by the editing load (system test) and
 * the benchmark's WebVTT section.
 */
import type { WordDelta } from '@wordcut/contracts';

/** Mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = (
  'the a and to of in that it is we this for you on with as are be have at our was but not they what all can ' +
  'people video editor words transcript timeline change make time really think going know about more would there ' +
  'their which when will one some just like also them into other how then these could first now need because way ' +
  'cut clip audio music speaker recording story minute example problem simple important different great question ' +
  'answer start finish project team design build release version feature user edit delete remove keep listen watch'
).split(' ');
/** Hesitations and markers as people say them; the filler rules flag most of them. */
const HESITATIONS = ['um', 'uh', 'you know', 'so', 'like', 'I mean', 'actually'];

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const between = (rng: () => number, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

/** hh:mm:ss.mmm */
export function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/**
 * A WebVTT file of `wordCount` words spoken at about 2.6 words a second: sentences of 6 to 24
 * words, cues of 5 to 12 words, short gaps between cues, a longer pause now and then (which, with
 * sentence ends, makes paragraphs), and about 3% hesitations. Cue words never repeat the previous
 * cue's last words, so caption de-duplication keeps them all.
 */
export function syntheticVtt(wordCount: number, seed: number): string {
  if (!Number.isInteger(wordCount) || wordCount < 1) throw new RangeError(`wordCount must be a positive integer, got ${wordCount}`);
  const rng = seededRandom(seed);
  const words: string[] = [];
  while (words.length < wordCount) {
    const sentence = between(rng, 6, 24);
    for (let i = 0; i < sentence && words.length < wordCount; i++) {
      let w = rng() < 0.03 ? pick(rng, HESITATIONS) : pick(rng, VOCABULARY);
      if (i === 0) w = w[0]!.toUpperCase() + w.slice(1);
      if (i === sentence - 1) w += rng() < 0.85 ? '.' : '?';
      else if (rng() < 0.06) w += ',';
      // hesitation phrases are two words in a cue; they count as two
      for (const part of w.split(' ')) if (words.length < wordCount) words.push(part);
    }
  }
  const cues: string[] = ['WEBVTT', ''];
  let t = 0.5;
  for (let i = 0; i < words.length; ) {
    const n = Math.min(between(rng, 5, 12), words.length - i);
    const text = words.slice(i, i + n);
    const duration = n / 2.6;
    cues.push(`${vttTime(t)} --> ${vttTime(t + duration)}`, text.join(' '), '');
    t += duration;
    const endsSentence = /[.?]$/.test(text[text.length - 1]!);
    t += rng() < 0.04 ? 1.6 + rng() : endsSentence && rng() < 0.3 ? 0.8 : rng() * 0.25;
    i += n;
  }
  return cues.join('\n');
}

/** Words an edit puts in (an editor's typical corrections). */
const REPLACEMENTS = ['correct', 'fixed', 'WordCut', 'timeline', 'really', 'um', 'okay', 'speaker', 'edited', 'clear'];

/**
 * One client's edit: the text of 1 to 3 distinct random words of a transcript of `wordCount`
 * words changes (word-change deltas only, the editor's commonest PATCH).
 */
export function randomTextEdit(rng: () => number, wordCount: number): Extract<WordDelta, { changes: unknown }>[] {
  if (!Number.isInteger(wordCount) || wordCount < 3) throw new RangeError(`wordCount must be an integer >= 3, got ${wordCount}`);
  const n = between(rng, 1, 3);
  const orders = new Set<number>();
  while (orders.size < n) orders.add(Math.floor(rng() * wordCount));
  return [...orders].map((word_order) => ({ word_order, changes: { text: pick(rng, REPLACEMENTS) } }));
}
