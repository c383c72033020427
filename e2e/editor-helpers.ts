import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { seedDemoVideo } from './seeded-video';

/**
 * Helpers of the transcript-editor end-to-end tests (editor.e2e.ts): open a fresh demo video
 * through the provider sandbox, read the real API, find words by their text (word times come
 * from the VTT, so tests address words by what they say, not by hard-coded indices or times),
 * wait for editing jobs, and measure audio loudness with ffmpeg.
 */

const run = promisify(execFile);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Ingest of the ~30 s demo (VTT parsing, waveform) through the provider entry. */
export const INGEST_TIMEOUT_MS = 90_000;
/** A server render of the demo plus the overlay's 2 s + 2 s closing phases. */
export const JOB_TIMEOUT_MS = 75_000;

export const DEMO_MEDIA_DIR = process.env['E2E_DEMO_MEDIA_DIR'] ?? path.resolve(__dirname, '../.data/test-media');

export interface ApiWord {
  text: string;
  start: number;
  end: number;
  word_order: number;
}

export interface ApiTranscript {
  id: string;
  version: number;
  words: ApiWord[];
  paragraphs: Array<{ start: number; end: number; wordIndices: number[]; groupNumber?: number }>;
  fillerWords: number[];
}

export interface ApiVideo {
  id: string;
  duration: number | null;
  status: string;
  providerSessionId?: string | null;
}

/** The demo video file the sandbox serves (made by the e2e global setup). */
export function demoVideoFile(): string {
  const file = path.join(DEMO_MEDIA_DIR, 'demo.mp4');
  if (!existsSync(file)) throw new Error(`${file} is missing: the e2e global setup makes it (npm run media)`);
  return file;
}

/**
 * Opens a NEW demo video (each test edits its own) and waits until its transcript is on screen.
 * The video is a completed copy of the one the global setup ingested, held by a new provider
 * session: the sandbox's link for that session opens it without importing. `ingest: true` takes
 * the real path instead (the sandbox's link makes a new session and the video is ingested).
 * Returns the video id from the editor route.
 */
export async function openDemoVideo(page: Page, options: { lang?: string; ingest?: boolean } = {}): Promise<string> {
  const sandbox = process.env['PROVIDER_SANDBOX_URL'];
  if (!sandbox) throw new Error('PROVIDER_SANDBOX_URL is not set: the e2e setup must start the provider sandbox');
  const query = new URLSearchParams({ video: 'demo', ...(options.lang ? { lang: options.lang } : {}) });
  let seeded: string | undefined;
  if (!options.ingest) {
    const session = `e2e-${randomUUID()}`;
    seeded = await seedDemoVideo(session, options.lang);
    query.set('session', session);
  }
  await page.goto(`${sandbox.replace(/\/+$/, '')}/open?${query.toString()}`);
  await expect(page).toHaveURL(new RegExp(`/editor/${UUID}$`), { timeout: 30_000 });
  const id = new URL(page.url()).pathname.split('/').pop()!;
  if (seeded) expect(id, 'the session opens its seeded video').toBe(seeded);
  await waitForTranscript(page);
  await waitForPageSettled(page);
  return id;
}

/**
 * Waits until the editor has loaded what it shows on open: the waveform drawn, the publish
 * remote's header, and no request for 500 ms. A test that plays or measures starts on an idle page.
 */
export async function waitForPageSettled(page: Page): Promise<void> {
  await expect(page.getByTestId('waveform-canvas')).toHaveAttribute('data-peaks', /^[1-9]\d*$/, { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Publish changes' })).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState('networkidle', { timeout: 20_000 });
}

/** Waits until the transcript words are shown and processing is over (after a load or reload). */
export async function waitForTranscript(page: Page): Promise<void> {
  await expect(page.getByTestId('transcript-word').first()).toBeVisible({ timeout: INGEST_TIMEOUT_MS });
  await expect(page.getByTestId('vtt-processing')).toHaveCount(0);
}

/**
 * The page's identity as request headers: the provider session token of the tab, else the
 * upload form's gateway session. API calls made beside the page (page.request) need it too.
 */
export async function authHeaders(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(() => {
    const provider = sessionStorage.getItem('wordcut_session_token');
    if (provider) return provider;
    const gateway = JSON.parse(localStorage.getItem('wordcut_gateway_session') ?? 'null') as { token?: string } | null;
    return gateway?.token ?? null;
  });
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url, { headers: await authHeaders(page) });
  if (!response.ok()) throw new Error(`GET ${url} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

export function fetchVideo(page: Page, videoId: string): Promise<ApiVideo> {
  return getJson<ApiVideo>(page, `/api/videos/${videoId}`);
}

export function fetchTranscript(page: Page, videoId: string): Promise<ApiTranscript> {
  return getJson<ApiTranscript>(page, `/api/videos/${videoId}/transcript`);
}

/** A word's text without case and punctuation ('Um,' -> 'um'), to compare words by what they say. */
export function normalise(text: string): string {
  return text.toLocaleLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
}

/** Index of the first word of `phrase` (space-separated, compared normalised); throws when absent. */
export function findPhrase(words: readonly Pick<ApiWord, 'text'>[], phrase: string): number {
  const parts = phrase.split(/\s+/).map(normalise);
  for (let i = 0; i + parts.length <= words.length; i++) {
    if (parts.every((p, k) => normalise(words[i + k]!.text) === p)) return i;
  }
  throw new Error(`'${phrase}' is not in the transcript: ${words.map((w) => w.text).join(' ')}`);
}

/** The word at an index in the transcript list. */
export function wordAt(page: Page, index: number): Locator {
  return page.locator(`[data-testid="transcript-word"][data-word-index="${index}"]`);
}

/** The shell's toast (libs/ui toast.tsx) whose title is `title`. */
export function toastTitled(page: Page, title: string | RegExp): Locator {
  return page.locator('.wc-toast').filter({ has: page.locator('.wc-toast__title', { hasText: title }) });
}

export interface SeenToast {
  title: string;
  description: string;
}

/**
 * Records every toast shown from the next page load on (window.__toasts). Only one toast is visible
 * at a time, so a toast followed quickly by another (e.g. 'Video cloned' then 'Export
 * Started') may be gone before a locator looks: assert on what was shown with toastsSeen().
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __toasts: SeenToast[] };
    w.__toasts = [];
    const seen = new WeakSet<Element>();
    const scan = () => {
      for (const el of Array.from(document.querySelectorAll('.wc-toast'))) {
        if (seen.has(el)) continue;
        seen.add(el);
        const text = (selector: string) => el.querySelector(selector)?.textContent ?? '';
        w.__toasts.push({ title: text('.wc-toast__title'), description: text('.wc-toast__description') });
      }
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true });
  });
}

/** The toasts shown since the page loaded (needs recordToasts before the navigation). */
export async function toastsSeen(page: Page): Promise<SeenToast[]> {
  return page.evaluate(() => (window as unknown as { __toasts?: SeenToast[] }).__toasts ?? []);
}

/** Waits until a toast with this title has been shown (even if another one replaced it since). */
export async function expectToastShown(page: Page, title: string, timeout = 20_000): Promise<SeenToast> {
  await expect.poll(async () => (await toastsSeen(page)).map((t) => t.title), { timeout }).toContain(title);
  return (await toastsSeen(page)).find((t) => t.title === title)!;
}

/**
 * Waits for the editing job started by the last click: the overlay appears, reaches its
 * success phases (a failed job closes without them) and closes.
 */
export async function waitForJobToFinish(page: Page): Promise<void> {
  const overlay = page.getByTestId('job-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAttribute('data-phase', /^(complete|loading)$/, { timeout: JOB_TIMEOUT_MS });
  await expect(overlay).toHaveCount(0, { timeout: 10_000 });
}

/**
 * Edits a word through the word-edit popover: selects it, double-clicks it, types and saves.
 * The word is selected first because the first click of a double click on an unselected word
 * brings up the selection toolbar, which pushes the words down before the second click lands
 * (the editor's own double-click test covers that case). It ends with a click elsewhere, as a person
 * ends a selection before clicking a word its toolbar may cover.
 */
export async function editWord(page: Page, index: number, text: string): Promise<void> {
  await wordAt(page, index).click();
  await expect(page.getByTestId('selection-toolbar')).toBeVisible();
  await wordAt(page, index).dblclick();
  const popover = page.getByTestId('word-edit');
  await expect(popover).toBeVisible();
  await popover.getByLabel('Edit Word').fill(text);
  await popover.getByRole('button', { name: 'Save' }).click();
  await expect(popover).toHaveCount(0);
  // done with the word: the selection (and its toolbar, which may sit over words further on) ends
  await pressElsewhere(page);
  await expect(page.getByTestId('selection-toolbar')).toHaveCount(0);
}

/** Clicks the first spot of the page with no word, control, menu, dialog, toolbar or video under it. */
export async function pressElsewhere(page: Page): Promise<void> {
  const spot = await page.evaluate(() => {
    const keeps = '[data-word-index], button, input, select, textarea, a[href], label, [role="menu"], [role="menuitem"], [role="dialog"], [role="toolbar"], [role="status"], [contenteditable="true"], video, li, ol';
    for (let y = 20; y < window.innerHeight; y += 23) {
      for (let x = 20; x < window.innerWidth; x += 37) {
        const el = document.elementFromPoint(x, y);
        if (el && el.closest(keeps) === null) return { x, y };
      }
    }
    return null;
  });
  if (!spot) throw new Error('no empty spot on the page to click');
  await page.mouse.click(spot.x, spot.y);
}

/**
 * The undo position of the history the editor keeps in localStorage for a reload, or null.
 * The store writes it 400 ms after the last save is confirmed, so a test waits for it before
 * reloading (a reload inside that window starts with an older history).
 */
export function persistedHistoryIndex(page: Page, videoId: string): Promise<number | null> {
  return page.evaluate((key) => {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const stored = JSON.parse(raw) as { history: string };
    return (JSON.parse(stored.history) as { index: number }).index;
  }, `wordcut_editor_${videoId}`);
}

/** Mean volume (dB) of `duration` seconds from `start` of a media file's audio (ffmpeg volumedetect). */
export async function meanVolume(file: string, start: number, duration: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner', '-nostdin',
    '-ss', start.toFixed(3), '-t', duration.toFixed(3), '-i', file,
    '-vn', '-af', 'volumedetect', '-f', 'null', '-',
  ]);
  const match = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!match) throw new Error(`ffmpeg volumedetect gave no mean volume for ${file} at ${start}s:\n${stderr}`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}

/** RMS loudness of each `windowS` window of `duration` seconds from `start` of a media file's audio (mono 8 kHz). */
export async function loudnessEnvelope(file: string, start: number, duration: number, windowS = 0.05): Promise<number[]> {
  const { stdout } = await promisify(execFile)(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-v', 'error', '-ss', start.toFixed(3), '-t', duration.toFixed(3), '-i', file, '-vn', '-ac', '1', '-ar', '8000', '-f', 's16le', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  const samples = new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.byteLength / 2));
  const per = Math.max(1, Math.round(8000 * windowS));
  const out: number[] = [];
  for (let i = 0; i + per <= samples.length; i += per) {
    let sum = 0;
    for (let j = i; j < i + per; j++) sum += samples[j]! * samples[j]!;
    out.push(Math.sqrt(sum / per));
  }
  return out;
}

/** Pearson correlation of two series over their common length. */
export function correlation(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  if (n < 2) return 0;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return da > 0 && db > 0 ? num / Math.sqrt(da * db) : 0;
}

/**
 * Seeks the page's player to `from` (muted), plays for `ms`, pauses: where it got, how many frames
 * it decoded, and any media error (with Chromium's message), before and after.
 */
export async function playThrough(page: Page, from: number, ms: number): Promise<{ errorBefore: string | null; error: string | null; from: number; time: number; frames: number; src: string }> {
  return page.evaluate(
    async ([target, playMs]) => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!;
      const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
      const describe = (e: MediaError | null) => (e ? `${e.code} ${e.message}` : null);
      const errorBefore = describe(v.error);
      v.muted = true;
      v.currentTime = Math.max(0, target);
      for (let i = 0; i < 50 && (v.seeking || v.readyState < 2); i++) await sleep(100);
      const at = v.currentTime;
      const frames = v.getVideoPlaybackQuality().totalVideoFrames;
      await Promise.race([v.play(), sleep(5000)]);
      await sleep(playMs);
      v.pause();
      return { errorBefore, error: describe(v.error), from: at, time: v.currentTime, frames: v.getVideoPlaybackQuality().totalVideoFrames - frames, src: v.currentSrc };
    },
    [from, ms] as const,
  );
}

/** Starts recording the player's time (every frame and time update) into window.__samples. */
export async function startSampling(page: Page) {
  await page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!;
    const w = window as unknown as { __samples: Sample[]; __sampling: boolean };
    w.__samples = [];
    w.__sampling = true;
    // a sample taken while a seek is under way is skipped: nothing is heard until the seek lands
    const take = (late: boolean) => {
      if (!video.seeking) w.__samples.push({ t: video.currentTime, v: video.volume, late });
    };
    video.addEventListener('timeupdate', () => take(false));
    // a frame that comes over 50 ms after the last one is 'late': the player looks ahead one frame,
    // so after a stall (a loaded machine) the volume for the new position is set in the same frame
    let last = performance.now();
    const frame = (now: number) => {
      if (!w.__sampling) return;
      take(now - last > 50);
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

export interface Sample {
  t: number;
  v: number;
  late: boolean;
}

export async function stopSampling(page: Page): Promise<Sample[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __samples: Sample[]; __sampling: boolean };
    w.__sampling = false;
    return w.__samples;
  });
}
