import type { TimedWord } from './sentences';

/** Seconds per word and between words and sentences in the constructed talks. */
const WORD = 0.32;
const WORD_GAP = 0.06;
const SENTENCE_GAP = 0.45;

/** A talk read at a steady pace: the words of `sentences`, timed one after the other. */
export function timedTalk(sentences: readonly string[], start = 0.5): { words: TimedWord[]; bounds: Array<{ first: number; last: number; start: number; end: number }> } {
  const words: TimedWord[] = [];
  const bounds: Array<{ first: number; last: number; start: number; end: number }> = [];
  let t = start;
  for (const s of sentences) {
    const first = words.length;
    for (const text of s.split(/\s+/).filter(Boolean)) {
      words.push({ text, start: t, end: t + WORD });
      t += WORD + WORD_GAP;
    }
    bounds.push({ first, last: words.length - 1, start: words[first]!.start, end: words[words.length - 1]!.end });
    t += SENTENCE_GAP;
  }
  return { words, bounds };
}

/** Flat sentences: plain statements with no step, instruction, quote, figure, feeling or question. */
export const FLAT = [
  'The meeting room was on the third floor of the old building near the station.',
  'We usually had the weekly review there on the morning before the team lunch.',
  'The chairs were grey and the table was long enough for about twelve people.',
  'Somebody had left a pile of printed reports next to the window that week.',
  'The projector took a while to warm up before the slides appeared on the wall.',
  'Most people arrived a few minutes early and sat down in the same seats as usual.',
  'The agenda had the same headings as the week before with a few small changes.',
  'After the review the room was booked by another group from the finance department.',
  'The building had two lifts and a staircase that most people used in the morning.',
  'There was a coffee machine in the corridor outside the meeting room door.',
  'The notes from the review were written up and shared by the end of the afternoon.',
  'The windows of the room looked out over the car park and a row of small trees.',
];

/** A numbered list of instructions. */
export const STEPS = [
  'First, open the settings page from the menu at the top of the window.',
  'Second, choose the export tab and look for the format list.',
  'Third, pick the format that your editor expects for the final file.',
  'Finally, press the save button and wait until the bar turns green.',
];

/** A short aphorism. */
export const APHORISM = 'Simple tools beat clever tools every single time.';
