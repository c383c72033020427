/**
 * The media whose script the sandbox knows: the `<name>.mp4` files of its media directory with a
 * `<name>.words.json` or `<name>.vtt` beside them. Their loudness envelopes are computed when first
 * needed (computePeaks of @wordcut/ffmpeg) and kept by path and modification time.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { computePeaks, mediaInput } from '@wordcut/ffmpeg';
import { buildTranscriptFromCaptions } from '@wordcut/transcript';
import { SAFE_NAME } from './http';
import { isFile } from './media';
import type { ScriptWord } from './transcription-answer';

/** Envelopes are computed this many at a time. */
const ENVELOPE_CONCURRENCY = 4;
const ENVELOPE_TIMEOUT_MS = 120_000;

export interface KnownMedia {
  /** the file name without `.mp4` */
  name: string;
  mp4: string;
  /** `.words.json` when there is one, else `.vtt` */
  script: string;
  /** one level byte per frame (ENERGY_FRAMES_PER_SECOND) */
  energy: Uint8Array;
}

export interface Script {
  languageCode: string;
  words: ScriptWord[];
}

export class KnownMediaIndex {
  /** by mp4 path: the envelope of that version (null: it could not be decoded) */
  private readonly envelopes = new Map<string, { version: string; energy: Promise<Uint8Array | null> }>();

  constructor(private readonly mediaDir: string) {}

  /** Every known media whose envelope could be computed, by name. */
  async list(): Promise<KnownMedia[]> {
    const files = await readdir(this.mediaDir).catch(() => [] as string[]);
    const names = files
      .filter((f) => f.endsWith('.mp4'))
      .map((f) => f.slice(0, -4))
      .filter((n) => SAFE_NAME.test(n))
      .sort();
    const candidates: Omit<KnownMedia, 'energy'>[] = [];
    for (const name of names) {
      const script = await this.scriptPath(name);
      if (script) candidates.push({ name, mp4: join(this.mediaDir, `${name}.mp4`), script });
    }
    const out: (KnownMedia | null)[] = new Array<KnownMedia | null>(candidates.length).fill(null);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < candidates.length) {
        const i = next++;
        const energy = await this.envelope(candidates[i]!.mp4);
        if (energy) out[i] = { ...candidates[i]!, energy };
      }
    };
    await Promise.all(Array.from({ length: Math.min(ENVELOPE_CONCURRENCY, candidates.length) }, worker));
    return out.filter((m): m is KnownMedia => m !== null);
  }

  /** The words of a known media's script (WebVTT cues spread over their words). */
  async script(media: KnownMedia): Promise<Script> {
    const t = buildTranscriptFromCaptions(await readFile(media.script, 'utf8'));
    return { languageCode: t.languageCode, words: t.words.map((w) => ({ text: w.text, start: w.start, end: w.end })) };
  }

  private async scriptPath(name: string): Promise<string | null> {
    for (const ext of ['.words.json', '.vtt']) {
      const path = join(this.mediaDir, `${name}${ext}`);
      if (await isFile(path)) return path;
    }
    return null;
  }

  /** The envelope of this version of the file: cached by modification time and size. */
  private async envelope(path: string): Promise<Uint8Array | null> {
    const st = await stat(path).catch(() => null);
    if (!st?.isFile()) return null;
    const version = `${st.mtimeMs}:${st.size}`;
    const cached = this.envelopes.get(path);
    if (cached?.version === version) return cached.energy;
    const energy = computePeaks(mediaInput(path), { peaksPerSecond: 1, timeoutMs: ENVELOPE_TIMEOUT_MS }).then(
      (r) => r.energy,
      () => null, // not decodable media (a placeholder file): never matched
    );
    this.envelopes.set(path, { version, energy });
    return energy;
  }
}
