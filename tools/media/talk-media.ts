/**
 * The synthesised talk of generate-test-media.sh (talk.mp4, talk.vtt, talk.pauses.json): pauses of
 * known position and length, for pause detection tests; and its lesson (lesson.mp4, lesson.vtt,
 * lesson.json): sentences written to be flat, step-by-step or quotable, for key moments.
 */
import type { PauseType } from '@wordcut/contracts';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface TalkPause {
  start: number;
  end: number;
  /** the type the pause rules should give it */
  type: PauseType;
}

export interface TalkTruth {
  file: string;
  /** of the generated audio (the encoded file's may be a few ms longer) */
  duration: number;
  pauses: TalkPause[];
  /** what is spoken between the pauses */
  fragments: Array<{ start: number; end: number; text: string }>;
}

/** Generates the test media into `dir` (nothing when they are up to date) and reads the talk's truth. */
export function talkMedia(dir: string): { mp4: string; vtt: string; truth: TalkTruth } {
  execFileSync('bash', [resolve(__dirname, 'generate-test-media.sh'), dir], { stdio: 'ignore' });
  return {
    mp4: join(dir, 'talk.mp4'),
    vtt: join(dir, 'talk.vtt'),
    truth: JSON.parse(readFileSync(join(dir, 'talk.pauses.json'), 'utf8')) as TalkTruth,
  };
}

/** One sentence of the synthesised lesson and what it was written to be. */
export interface LessonSentence {
  start: number;
  end: number;
  text: string;
  kind: 'flat' | 'step' | 'quote';
}

export interface LessonTruth {
  file: string;
  duration: number;
  sentences: LessonSentence[];
}

/** Generates the test media into `dir` (nothing when they are up to date) and reads the lesson's truth (lesson.mp4, lesson.vtt, lesson.json). */
export function lessonMedia(dir: string): { mp4: string; vtt: string; truth: LessonTruth } {
  execFileSync('bash', [resolve(__dirname, 'generate-test-media.sh'), dir], { stdio: 'ignore' });
  return {
    mp4: join(dir, 'lesson.mp4'),
    vtt: join(dir, 'lesson.vtt'),
    truth: JSON.parse(readFileSync(join(dir, 'lesson.json'), 'utf8')) as LessonTruth,
  };
}
