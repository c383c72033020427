/**
 * The talks of the key-moment evaluation set (talks/<id>.json, README.md): their shape, and the
 * rules a talk file must keep, checked when it is read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TALKS_DIR = join(__dirname, 'talks');
export const CATEGORIES = ['High-impact', 'Actionable', 'Entertaining', 'Quotable', 'Visual'] as const;
export type Category = (typeof CATEGORIES)[number];
export const SPLITS = ['tune', 'held-out'] as const;
export type Split = (typeof SPLITS)[number];

/** A moment labelled by hand: whole sentences `from`..`to` (indices, inclusive). */
export interface LabelledMoment {
  category: Category;
  from: number;
  to: number;
  /** why a person would clip it, in one line */
  reason: string;
}

export interface Talk {
  id: string;
  title: string;
  speaker: string;
  year: number;
  /** why the text is free to use, and which part of it this is */
  source: string;
  split: Split;
  /** one spoken sentence each, in order */
  sentences: string[];
  /** indices of the sentences that start a paragraph */
  paragraphs?: number[];
  moments: LabelledMoment[];
}

/** Words per talk, and labelled moments per talk. */
export const TALK_WORDS = { min: 300, max: 900 } as const;
export const TALK_MOMENTS = { min: 2, max: 5 } as const;

export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;
export const talkWords = (t: Talk): number => t.sentences.reduce((n, s) => n + wordCount(s), 0);

/** The problems of a talk file, none when it keeps the rules. */
export function talkProblems(t: Talk, file: string): string[] {
  const out: string[] = [];
  const n = t.sentences?.length ?? 0;
  if (!/^[a-z0-9-]+$/.test(t.id ?? '') || `${t.id}.json` !== file) out.push(`id "${t.id}" must be lower-case words and match the file name`);
  for (const key of ['title', 'speaker', 'source'] as const) if (typeof t[key] !== 'string' || t[key].length === 0) out.push(`${key} missing`);
  if (!Number.isInteger(t.year)) out.push('year missing');
  if (!SPLITS.includes(t.split)) out.push(`split must be one of ${SPLITS.join(', ')}`);
  if (n === 0) out.push('no sentences');
  // plain text espeak-ng reads: letters first (never an option), no dashes or quotes as words
  t.sentences?.forEach((s, i) => {
    if (!/^[A-Z][^"“”—–[\]]*[.!?]$/.test(s) || /\s-\s/.test(s)) out.push(`sentence ${i} is not one plain sentence: ${s.slice(0, 40)}`);
  });
  const words = n ? talkWords(t) : 0;
  if (words < TALK_WORDS.min || words > TALK_WORDS.max) out.push(`${words} words, not ${TALK_WORDS.min}-${TALK_WORDS.max}`);
  const paragraphs = t.paragraphs ?? [];
  if (paragraphs.some((p, k) => !Number.isInteger(p) || p < 0 || p >= n || (k > 0 && p <= paragraphs[k - 1]!))) out.push('paragraphs must be increasing sentence indices');
  const moments = t.moments ?? [];
  if (moments.length < TALK_MOMENTS.min || moments.length > TALK_MOMENTS.max) out.push(`${moments.length} moments, not ${TALK_MOMENTS.min}-${TALK_MOMENTS.max}`);
  const sorted = [...moments].sort((a, b) => a.from - b.from);
  sorted.forEach((m, k) => {
    if (!CATEGORIES.includes(m.category)) out.push(`moment ${m.from}-${m.to}: unknown category ${m.category}`);
    if (!Number.isInteger(m.from) || !Number.isInteger(m.to) || m.from < 0 || m.to >= n || m.from > m.to) out.push(`moment ${m.from}-${m.to}: not a range of sentences`);
    if (k > 0 && m.from <= sorted[k - 1]!.to) out.push(`moment ${m.from}-${m.to} overlaps the one before`);
    if (!m.reason) out.push(`moment ${m.from}-${m.to}: no reason`);
  });
  return out;
}

/** Every talk of the set, checked (a broken file throws, naming its problems), by id. */
export function readTalks(dir = TALKS_DIR): Array<{ talk: Talk; file: string; text: string }> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  return files.map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const talk = JSON.parse(text) as Talk;
    const problems = talkProblems(talk, file);
    if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`);
    return { talk, file: join(dir, file), text };
  });
}
