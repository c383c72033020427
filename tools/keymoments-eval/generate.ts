/**
 * Voices the key-moment evaluation set (README.md) as tools/media/generate-test-media.sh voices its
 * lesson: each sentence espeak-ng (en-us, 170 words a minute, no final pause), trimmed to its first
 * and last sample above -90 dBFS, 0.6 s of silence between sentences (1.2 s before a paragraph),
 * 0.6 s after the last; a 320x180 plain-colour H.264 + AAC video of it; word-level WebVTT (sentence
 * edges exact, the words inside a sentence timed in proportion to their letters).
 *
 * Per talk `<out>/<id>.mp4`, `<id>.vtt` and `<id>.truth.json` (duration, each sentence's edges and
 * text, each labelled moment's edges and category). A talk is made again only when its file, this
 * script, talks.ts or the espeak-ng/ffmpeg versions change (their hash is kept in its truth); two
 * talks at a time, each in a child process.
 *
 * usage: npx tsx tools/keymoments-eval/generate.ts [OUT (default .data/keymoments-eval)] [--force]
 */
import { runFfmpeg } from '@wordcut/ffmpeg';
import { execFileSync, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTalks, talkWords, type Category, type Split, type Talk } from './talks';

export const DEFAULT_OUT = resolve(__dirname, '../..', process.env['WORDCUT_DATA_DIR'] ?? '.data', 'keymoments-eval');
const VOICE = ['-v', 'en-us', '-s', '170', '-a', '140', '-z'];
/** espeak-ng's output: 22,050 Hz mono 16-bit */
const RATE = 22050;
const GAP = 0.6;
const PARAGRAPH_GAP = 1.2;
/** -90 dBFS: the trim of generate-test-media.sh (silenceremove, peak detection) */
const SOUND = 32768 * 10 ** (-90 / 20);
/** what a labelled moment must last, as the analyser's moments do */
const MOMENT_SECONDS = { min: 15, max: 60 } as const;
const PARALLEL = 2;

export interface TruthMoment {
  category: Category;
  from: number;
  to: number;
  start: number;
  end: number;
  reason: string;
}

export interface TalkTruth {
  id: string;
  title: string;
  split: Split;
  /** of the talk's inputs and this script: the outputs are current while it matches */
  hash: string;
  words: number;
  /** seconds of the generated audio */
  duration: number;
  sentences: Array<{ start: number; end: number; text: string }>;
  moments: TruthMoment[];
}

export interface GeneratedTalk {
  talk: Talk;
  mp4: string;
  vtt: string;
  truth: TalkTruth;
}

export interface GeneratedSet {
  dir: string;
  talks: GeneratedTalk[];
  /** ids made in this run (the others were current) */
  made: string[];
  seconds: number;
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** HH:MM:SS.mmm */
function ts(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)}.${p(ms % 1000, 3)}`;
}

/** The samples of a 16-bit mono WAV file at RATE. */
function readWav(file: string): Int16Array {
  const b = readFileSync(file);
  if (b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${file}: not a WAV file`);
  for (let at = 12; at + 8 <= b.length; ) {
    const id = b.toString('ascii', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'fmt ' && (b.readUInt16LE(at + 10) !== 1 || b.readUInt32LE(at + 12) !== RATE || b.readUInt16LE(at + 22) !== 16)) {
      throw new Error(`${file}: not ${RATE} Hz mono 16-bit`);
    }
    if (id === 'data') {
      const bytes = b.subarray(at + 8, Math.min(b.length, at + 8 + size));
      return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)));
    }
    at += 8 + size + (size & 1);
  }
  throw new Error(`${file}: no data chunk`);
}

function writeWav(file: string, samples: Int16Array): void {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + samples.byteLength, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(RATE, 24);
  h.writeUInt32LE(RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(samples.byteLength, 40);
  writeFileSync(file, Buffer.concat([h, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]));
}

/** From the first to the last sample of sound. */
function trimmed(samples: Int16Array): Int16Array {
  let a = 0;
  let b = samples.length;
  while (a < b && Math.abs(samples[a]!) < SOUND) a++;
  while (b > a && Math.abs(samples[b - 1]!) < SOUND) b--;
  return samples.subarray(a, b);
}

/** One cue per word: the sentence's span shared in proportion to each word's letters (plus one). */
function wordCues(text: string, start: number, end: number): string {
  const words = text.split(' ').filter(Boolean);
  const total = words.reduce((n, w) => n + w.length + 1, 0);
  let t = start;
  return words
    .map((w, i) => {
      const e = i === words.length - 1 ? end : t + ((end - start) * (w.length + 1)) / total;
      const cue = `${ts(t)} --> ${ts(e)}\n${w}\n\n`;
      t = e;
      return cue;
    })
    .join('');
}

/** The hash a talk's outputs are current for: its file, this script, talks.ts, the tools' versions. */
function inputsHash(talkText: string, tools: string): string {
  const h = createHash('sha256');
  for (const part of [readFileSync(__filename, 'utf8'), readFileSync(join(__dirname, 'talks.ts'), 'utf8'), tools, talkText]) h.update(part).update('\0');
  return h.digest('hex').slice(0, 32);
}

function toolVersions(): string {
  const first = (out: Buffer) => out.toString('utf8').split('\n')[0]!.trim();
  return `${first(execFileSync('espeak-ng', ['--version']))}\n${first(execFileSync('ffmpeg', ['-hide_banner', '-version']))}`;
}

const outputs = (out: string, id: string) => ({ mp4: join(out, `${id}.mp4`), vtt: join(out, `${id}.vtt`), truth: join(out, `${id}.truth.json`) });

function currentTruth(out: string, id: string, hash: string): TalkTruth | null {
  const o = outputs(out, id);
  if (!existsSync(o.mp4) || !existsSync(o.vtt) || !existsSync(o.truth)) return null;
  const truth = JSON.parse(readFileSync(o.truth, 'utf8')) as TalkTruth;
  return truth.hash === hash ? truth : null;
}

/** Voices one talk into `out` (files written beside and renamed into place, the truth last). */
export async function generateTalk(talk: Talk, hash: string, out: string): Promise<TalkTruth> {
  const work = join(out, `.work-${talk.id}-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const paragraphStarts = new Set(talk.paragraphs ?? []);
    const pieces: Int16Array[] = [];
    const sentences: TalkTruth['sentences'] = [];
    let cursor = 0;
    let vtt = 'WEBVTT\n\n';
    talk.sentences.forEach((text, i) => {
      if (i > 0) {
        const gap = new Int16Array(Math.round((paragraphStarts.has(i) ? PARAGRAPH_GAP : GAP) * RATE));
        pieces.push(gap);
        cursor += gap.length;
      }
      const wav = join(work, `s${i}.wav`);
      execFileSync('espeak-ng', [...VOICE, '-w', wav, text], { stdio: ['ignore', 'ignore', 'pipe'] });
      const sound = trimmed(readWav(wav));
      if (sound.length === 0) throw new Error(`${talk.id}: sentence ${i} has no sound`);
      const start = cursor / RATE;
      const end = (cursor + sound.length) / RATE;
      pieces.push(sound);
      cursor += sound.length;
      sentences.push({ start: round6(start), end: round6(end), text });
      vtt += wordCues(text, start, end);
    });
    pieces.push(new Int16Array(Math.round(GAP * RATE)));
    cursor += pieces[pieces.length - 1]!.length;
    const audio = new Int16Array(cursor);
    let at = 0;
    for (const p of pieces) {
      audio.set(p, at);
      at += p.length;
    }
    const duration = round6(cursor / RATE);
    const moments = talk.moments.map((m) => ({ category: m.category, from: m.from, to: m.to, start: sentences[m.from]!.start, end: sentences[m.to]!.end, reason: m.reason }));
    const wrong = moments.filter((m) => m.end - m.start < MOMENT_SECONDS.min || m.end - m.start > MOMENT_SECONDS.max);
    if (wrong.length > 0) {
      const list = wrong.map((m) => `${m.from}-${m.to} lasts ${Math.round((m.end - m.start) * 10) / 10} s`).join(', ');
      throw new Error(`${talk.id}: labelled moments must last ${MOMENT_SECONDS.min}-${MOMENT_SECONDS.max} s: ${list}`);
    }
    writeWav(join(work, 'speech.wav'), audio);
    const o = outputs(out, talk.id);
    const mp4 = join(work, `${talk.id}.mp4`);
    await runFfmpeg({
      args: [
        '-f', 'lavfi', '-i', 'color=c=0x1b2433:size=320x180:rate=15',
        '-i', join(work, 'speech.wav'),
        '-map', '0:v', '-map', '1:a', '-t', String(duration),
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '32', '-g', '150', '-pix_fmt', 'yuv420p',
        '-c:a', 'aac', '-ar', '44100', '-ac', '1', '-b:a', '64k',
        '-movflags', '+faststart', mp4,
      ],
      timeoutMs: 120_000,
      logLevel: 'error',
    });
    const truth: TalkTruth = { id: talk.id, title: talk.title, split: talk.split, hash, words: talkWords(talk), duration, sentences, moments };
    writeFileSync(join(work, 'talk.vtt'), vtt);
    writeFileSync(join(work, 'truth.json'), `${JSON.stringify(truth, null, 2)}\n`);
    renameSync(mp4, o.mp4);
    renameSync(join(work, 'talk.vtt'), o.vtt);
    renameSync(join(work, 'truth.json'), o.truth);
    return truth;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One talk in a child process (this file with `--one`), so espeak-ng's blocking calls run two at a time. */
function inChild(talkFile: string, hash: string, out: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = fork(__filename, ['--one', talkFile, hash, out], { execArgv: ['--require', 'tsx/cjs'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', fail);
    child.once('exit', (code, signal) => (code === 0 ? done() : fail(new Error(`${talkFile}: ${stderr.trim() || `exited with ${code ?? signal}`}`))));
  });
}

/** The whole set in `out`: current talks as they are, the others made (two at a time). */
export async function generateSet(o: { out?: string; force?: boolean; log?: (line: string) => void } = {}): Promise<GeneratedSet> {
  const t0 = performance.now();
  const out = resolve(o.out ?? DEFAULT_OUT);
  mkdirSync(out, { recursive: true });
  const tools = toolVersions();
  const talks = readTalks().map((t) => ({ ...t, hash: inputsHash(t.text, tools) }));
  const todo = talks.filter((t) => o.force || !currentTruth(out, t.talk.id, t.hash));
  const queue = [...todo];
  const failures: string[] = [];
  const run = async (): Promise<void> => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const started = performance.now();
      await inChild(t.file, t.hash, out).then(
        () => o.log?.(`  voiced ${t!.talk.id} in ${Math.round((performance.now() - started) / 100) / 10} s`),
        (err: Error) => failures.push(err.message),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, todo.length) }, run));
  if (failures.length > 0) throw new Error(`the evaluation set could not be made:\n${failures.join('\n')}`);
  const set = talks.map(({ talk, hash }) => {
    const truth = currentTruth(out, talk.id, hash);
    if (!truth) throw new Error(`${talk.id}: its media were not made`);
    const files = outputs(out, talk.id);
    return { talk, mp4: files.mp4, vtt: files.vtt, truth };
  });
  return { dir: out, talks: set, made: todo.map((t) => t.talk.id), seconds: Math.round((performance.now() - t0) / 100) / 10 };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const fail = (err: unknown) => {
    process.stderr.write(`${(err as Error).message ?? String(err)}\n`);
    process.exit(1);
  };
  if (args[0] === '--one') {
    const [, file, hash, out] = args as [string, string, string, string];
    generateTalk(JSON.parse(readFileSync(file, 'utf8')) as Talk, hash, out).then(() => process.exit(0), fail);
  } else {
    const log = (line: string) => process.stdout.write(`${line}\n`);
    generateSet({ out: args.find((a) => !a.startsWith('--')), force: args.includes('--force'), log }).then((s) => {
      log(`key-moment evaluation set in ${s.dir}: ${s.talks.length} talks, ${s.made.length} made, ${s.talks.length - s.made.length} current, ${s.seconds} s`);
      for (const t of s.talks) log(`  ${t.talk.id.padEnd(28)} ${t.talk.split.padEnd(8)} ${String(t.truth.words).padStart(4)} words ${t.truth.duration.toFixed(1).padStart(6)} s  ${t.truth.moments.length} moments`);
    }, fail);
  }
}
