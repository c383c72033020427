import type { Word } from '@wordcut/contracts';
import {
  DISCOURSE_MAX_DURATION_SECONDS,
  DISCOURSE_MIN_CONFIDENCE,
  KEYBOARD_FILLERS,
  detectFillerWords,
  detectKeyboardFillers,
} from './index';

type Spec = string | { text: string; duration?: number; confidence?: number };

/** Words back to back; a plain string lasts 0.6 s (not quick) with confidence 1. */
function words(...specs: Spec[]): Word[] {
  let t = 0;
  return specs.map((spec, i) => {
    const { text, duration = 0.6, confidence = 1 } = typeof spec === 'string' ? { text: spec } : spec;
    const word = { text, start: t, end: t + duration, confidence, group_number: 0, word_order: i };
    t += duration;
    return word;
  });
}
const flagged = (...specs: Spec[]) => {
  const ws = words(...specs);
  return detectFillerWords(ws).map((i) => ws[i]!.text);
};

describe('detectFillerWords: hesitation sounds', () => {
  it('flags um, uh, er, ah, mmm, hmm whatever their case and punctuation', () => {
    expect(flagged('Um,', 'I', 'uh', 'think', 'ER', 'ah...', 'mmm', 'Hmm?')).toEqual(['Um,', 'uh', 'ER', 'ah...', 'mmm', 'Hmm?']);
  });

  it('flags the patterns mm+, oo+, ah+, uh+, um+ (and hmm+)', () => {
    expect(flagged('mm', 'mmmm', 'oo', 'oooh', 'ooo', 'ahhh', 'uhhh', 'ummm', 'hmmmm')).toEqual(['mm', 'mmmm', 'oo', 'ooo', 'ahhh', 'uhhh', 'ummm', 'hmmmm']);
  });

  it('matches whole words only', () => {
    expect(flagged('mom', 'moo', 'oops', 'aha', 'umbrella', 'human', 'error', 'her', 'm', 'o', 'hm')).toEqual([]);
  });
});

describe('detectFillerWords: immediate repeats', () => {
  it('flags the repeat of a word longer than 2 characters', () => {
    expect(detectFillerWords(words('the', 'The,', 'end'))).toEqual([1]);
    expect(detectFillerWords(words('very', 'very', 'very', 'good'))).toEqual([1, 2]);
  });

  it('does not flag short repeats, non-adjacent repeats, or different words', () => {
    expect(flagged('no', 'no', 'I', 'I', 'go', 'go')).toEqual([]);
    expect(flagged('run', 'running', 'run')).toEqual([]);
    expect(flagged('--', '--')).toEqual([]);
  });
});

describe('detectFillerWords: discourse markers', () => {
  const markers = ['like', 'so', 'well', 'actually', 'basically', 'literally', 'right', 'okay', 'yeah'];

  it('flags each marker when shorter than 0.5 s', () => {
    for (const marker of markers) {
      expect(flagged('we', { text: marker, duration: 0.49 }, 'go')).toEqual([marker]);
      expect(flagged('we', { text: marker, duration: DISCOURSE_MAX_DURATION_SECONDS }, 'go')).toEqual([]);
    }
  });

  it('flags each marker when its confidence is below 0.8', () => {
    for (const marker of markers) {
      expect(flagged('we', { text: `${marker},`, confidence: 0.79 }, 'go')).toEqual([`${marker},`]);
      expect(flagged('we', { text: marker, confidence: DISCOURSE_MIN_CONFIDENCE }, 'go')).toEqual([]);
    }
  });

  it('treats "you know" as one marker: both words, timed as a phrase', () => {
    expect(flagged('it', { text: 'you', duration: 0.2 }, { text: 'know,', duration: 0.2 }, 'works')).toEqual(['you', 'know,']);
    expect(flagged('it', { text: 'you', duration: 0.3 }, { text: 'know', duration: 0.3 }, 'works')).toEqual([]);
    expect(flagged('it', { text: 'you', duration: 0.3 }, { text: 'know', duration: 0.3, confidence: 0.5 })).toEqual(['you', 'know']);
    expect(flagged({ text: 'you', duration: 0.1 }, 'see')).toEqual(['you']);
    expect(flagged({ text: 'know', duration: 0.1 })).toEqual([]);
  });

  it('measures the duration in milliseconds (0.063 s to 0.563 s is 0.5 s, not 0.49999 s)', () => {
    const ws = [{ text: 'so', start: 0.063, end: 0.563, confidence: 1, group_number: 0, word_order: 0 }];
    expect(detectFillerWords(ws)).toEqual([]);
  });

  it('does not flag words that only contain a marker', () => {
    expect(flagged({ text: 'likely', duration: 0.1 }, { text: 'also', duration: 0.1 }, { text: 'rightly', duration: 0.1 })).toEqual([]);
  });
});

describe('detectFillerWords: hedge phrases', () => {
  it('flags the first word of i mean, you see, kind of, sort of, i guess, i think, whatever the timing', () => {
    expect(flagged('I', 'mean,', 'it', 'is')).toEqual(['I']);
    expect(flagged('You', 'see', 'this')).toEqual(['You']);
    expect(flagged('kind', 'of', 'big')).toEqual(['kind']);
    expect(flagged('Sort', 'of.')).toEqual(['Sort']);
    expect(flagged('i', 'guess')).toEqual(['i']);
    expect(flagged('I', 'think', 'so')).toEqual(['I']);
  });

  it('needs the whole phrase', () => {
    expect(flagged('I', 'meant', 'it')).toEqual([]);
    expect(flagged('a', 'kind', 'person')).toEqual([]);
    expect(flagged('I', 'guessed')).toEqual([]);
    expect(flagged('think', 'I')).toEqual([]);
  });
});

describe('detectKeyboardFillers (Ctrl/Cmd+M)', () => {
  it('lists the seed words', () => {
    expect([...KEYBOARD_FILLERS].sort()).toEqual(['actually', 'ah', 'basically', 'er', 'i mean', 'like', 'literally', 'um', 'uh', 'you know'].sort());
  });

  it('flags every occurrence regardless of timing, both words of phrases', () => {
    const ws = words('Um,', 'I', 'mean', 'I', 'like', 'it,', 'you', 'know,', 'basically.', 'Actually', 'literally', 'uh', 'er', 'ah');
    expect(detectKeyboardFillers(ws).map((i) => ws[i]!.text)).toEqual(['Um,', 'I', 'mean', 'like', 'you', 'know,', 'basically.', 'Actually', 'literally', 'uh', 'er', 'ah']);
  });

  it('does not flag words outside its list', () => {
    expect(detectKeyboardFillers(words('so', 'hmm', 'okay', 'I', 'think', 'likely', 'you', 'see'))).toEqual([]);
  });
});
