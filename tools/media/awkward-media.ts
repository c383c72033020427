/** Test helper: the awkward media of generate-awkward-media.sh, generated once (the script is idempotent). */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../..');

/** The files generate-awkward-media.sh writes. */
export const AwkwardMedia = {
  rotated: 'rotated.mp4',
  odd: 'odd.mp4',
  vfr: 'vfr.mp4',
  hevc: 'hevc.mp4',
  noAudio: 'noaudio.mp4',
  moovAtEnd: 'moov-end.mp4',
  truncated: 'truncated.mp4',
  obsMkv: 'obs.mkv',
  screenWebm: 'screen.webm',
  fake: 'fake.mp4',
  vtt: 'awkward.vtt',
  garbageVtt: 'garbage.vtt',
} as const;

/** Speech timing in every awkward video with audio: silence before LEAD_SEC, speech after it, TOTAL_SEC long. */
export const AWKWARD_LEAD_SEC = 1.0;
export const AWKWARD_TOTAL_SEC = 3.5;
export const AWKWARD_SPEECH = 'Hello world, this is WordCut.';

/** Generates the media (unless up to date) into `dir` (default <repo>/.data/media/awkward) and returns the dir. */
export async function ensureAwkwardMedia(dir = join(ROOT, '.data/media/awkward')): Promise<string> {
  await promisify(execFile)('bash', [join(ROOT, 'tools/media/generate-awkward-media.sh'), dir], { timeout: 180_000 });
  return dir;
}
