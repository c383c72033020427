/**
 * Section 8: the editor's waveform timeline at 16x zoom on a 3-hour video, in a real browser,
 * playing and scrolling, against the obvious alternative of one canvas as wide as the whole
 * zoomed timeline.
 *
 * Set-up: a 3-hour MP4 made by ffmpeg (THREE_HOUR_TALK, cached in .data/bench/), its peaks built
 * with computePeaks at WAVEFORM_STORED_PEAKS_PER_SECOND and stored with encodeWaveform, as the media
 * worker does; section 7's stack (editor-ui-stack.ts) with that media and waveform in S3 and a
 * 26,000-word transcript spoken over the 3 hours; the built shell, editor and publish apps; Chromium
 * through Playwright, headless, 1280x800, with section 7's flags (and autoplay allowed).
 *
 * On the editor page: the timeline is zoomed to 16x with its '+' button (until
 * [data-testid="timeline-zoom"] reads '16x' and the canvas has the 16x peaks), the video seeks to
 * 1 h and plays at 4x; the view is put with the playhead just short of the point where the
 * timeline follows it, so the view follows once in the playing phase. Then, recorded in the page
 * (timeline-page.ts TIMELINE_PROBE_SCRIPT): (a) `seconds` of playing; (b) `seconds` of playing while
 * the timeline viewport scrolls by 30 px every frame (its scrollLeft set from a requestAnimationFrame
 * callback, turning at either end, as a fast drag). The figure is each frame's main-thread time
 * (frame timestamp -> its rendering task done, see TIMELINE_PROBE_SCRIPT) with the 60 Hz frames
 * missed and the long tasks. Target: p95 < 16 ms in both phases.
 *
 * Alternative, same run and browser (fullCanvasTimelinePage): one canvas 16 viewports wide with
 * every bar, redrawn whole on each playhead move and scroll event, fed by the same API call, served
 * with the gateway proxied under /api so that it plays the same stream; measured the same way, and
 * in (b) once more with redraws on playhead moves only (a full-width canvas need not be redrawn to
 * scroll).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright';
import { WAVEFORM_STORED_PEAKS_PER_SECOND, encodeWaveform, resampleWaveform, type Waveform } from '@wordcut/contracts';
import { computePeaks } from '@wordcut/ffmpeg';
import { waveformPoints } from '../../apps/editor/src/timeline/waveform';
import { MB, checkInterrupted, onCleanup, round } from './common';
import { CHROMIUM_ARGS, VIEWPORT, serveApps } from './editor-ui';
import { builtApps, pageIdentityScript, serveStatic, startEditorStack } from './editor-ui-stack';
import { ensureMedia, type Recipe } from './media';
import { FRAME_BUDGET_MS, TIMELINE_PROBE_SCRIPT, fullCanvasTimelinePage, summarizeFrames, type FrameFigures, type TimelineRun } from './timeline-page';

/** Length of the timeline's media. */
export const TIMELINE_MEDIA_SECONDS = 3 * 60 * 60;

/**
 * ~37 MB: 3 hours of 160x90 1 fps H.264 (testsrc, which shows its frame number, i.e. the second)
 * with mono 16 kHz AAC at 24 kbit/s: pink noise gated into bursts (about 4 a second) with pauses
 * between phrases, a slow rise and fall of loudness and a longer silence now and then, so the
 * peaks vary like speech all through the 3 hours. One ffmpeg run (the AAC encoder's fast coder),
 * about 30 s on 2 cores.
 */
export const THREE_HOUR_TALK: Recipe = {
  file: 'talk-160x90-1fps-3h.mp4',
  description: '160x90 1 fps H.264 + mono 16 kHz AAC 24k, 3 h talk-like, faststart',
  timeoutMs: 300_000,
  steps: (out) => [[
    '-f', 'lavfi', '-i', `testsrc=size=160x90:rate=1:duration=${TIMELINE_MEDIA_SECONDS}`,
    '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.5:sample_rate=16000:duration=${TIMELINE_MEDIA_SECONDS}`,
    '-filter_complex',
    "[1:a]volume='0.03+0.97*gt(sin(2*PI*t*4),0)*gt(sin(2*PI*t*0.31),-0.6)*(0.55+0.45*sin(2*PI*t/47))*gt(sin(2*PI*t/113),-0.9)':eval=frame[a]",
    '-map', '0:v', '-map', '[a]',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '24k', '-ac', '1',
    '-movflags', '+faststart', '-shortest', out,
  ]],
};

/** The zoom measured: the timeline's largest (ZOOM_MAX). */
export const TIMELINE_ZOOM = 16;
/** About 2.4 words a second over the 3 hours (the synthetic talk of section 4, seed 1). */
const TIMELINE_WORDS = 26_000;
const PLAYBACK_RATE = 4;
const START_SEC = 3600;
/** Where the playhead is put in the view before the playing phase: just short of where the view follows it (95%). */
const PARK_AT = 0.93;
const SCROLL_PX_PER_FRAME = 30;
const VIDEO = '[data-testid="video-player"]';
const VIEWPORT_SELECTOR = '[data-testid="timeline-viewport"]';
const CANVAS_SELECTOR = '[data-testid="waveform-canvas"]';

export type TimelinePathId = 'ours' | 'alternative' | 'alternative-scroll-free';
export type TimelinePhaseId = 'playing' | 'playing + scrolling';

export const TIMELINE_LABELS: Record<TimelinePathId, string> = {
  ours: 'ours: viewport-sized canvas, visible bars from the peak pyramid, DOM playhead',
  alternative: `alternative: one canvas ${TIMELINE_ZOOM} viewports wide, all bars redrawn on each playhead move and scroll`,
  'alternative-scroll-free': 'alternative, redrawn on playhead moves only (the compositor scrolls it)',
};

export interface TimelinePhase extends FrameFigures {
  phase: TimelinePhaseId;
  /** media seconds played during the phase (PLAYBACK_RATE x its length when it played throughout) */
  mediaAdvancedSec: number;
  /** scroll events on the timeline viewport (in 'playing': the times the view followed the playhead) */
  scrollEvents: number;
  /** the timeline canvas' draws in the phase and their mean time in script (ours: all visible bars; alternative: every bar) */
  draws: number;
  meanDrawScriptMs: number;
}

export interface TimelinePath {
  id: TimelinePathId;
  label: string;
  phases: TimelinePhase[];
}

export interface TimelineUiResults {
  media: { file: string; sizeMiB: number; durationSec: number; description: string; generatedSec: number };
  peaks: { stored: number; perSecond: number; buildSec: number; points: number; servedAsStored: boolean };
  words: number;
  browser: string;
  viewport: string;
  zoom: number;
  playbackRate: number;
  phaseSec: number;
  scrollPxPerFrame: number;
  /** the timeline viewport's width, the editor's content width at 16x, and the alternative canvas' width (CSS px) */
  viewportWidthPx: number;
  contentWidthPx: number;
  alternativeCanvasPx: number;
  paths: TimelinePath[];
  checks: { pageErrors: string[]; warnings: string[] };
  setupSec: number;
  sectionSec: number;
}

export interface TimelineUiOptions {
  s3Endpoint: string;
  /** length of each measured phase */
  seconds: number;
  /** the browser's device pixel ratio (default 1, as section 7; 2 as on most laptops quadruples every canvas' pixels) */
  deviceScaleFactor?: number;
  /** when set, a screenshot of each page after its phases goes there (editor.png, alternative.png) */
  screenshotDir?: string;
  log: (line: string) => void;
}

/** Seeks to START_SEC, plays at PLAYBACK_RATE, and waits until the time moves; the timeline is scrolled into the window first. */
async function startPlayback(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    document.querySelector(${JSON.stringify(VIEWPORT_SELECTOR)}).scrollIntoView({ block: 'center' });
    const v = document.querySelector(${JSON.stringify(VIDEO)});
    if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
    const seeked = new Promise((r) => v.addEventListener('seeked', r, { once: true }));
    v.currentTime = ${START_SEC};
    await seeked;
    v.playbackRate = ${PLAYBACK_RATE};
    await v.play();
    v.playbackRate = ${PLAYBACK_RATE};
  })()`);
  await page.waitForFunction(`(() => { const v = document.querySelector(${JSON.stringify(VIDEO)}); return !v.paused && v.currentTime > ${START_SEC + 2}; })()`, undefined, {
    timeout: 20_000,
    polling: 100,
  });
}

/** Puts the view so that the playhead sits at PARK_AT of its width, then lets the page settle. */
async function parkPlayhead(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    const v = document.querySelector(${JSON.stringify(VIDEO)});
    const vp = document.querySelector(${JSON.stringify(VIEWPORT_SELECTOR)});
    vp.scrollLeft = (v.currentTime / v.duration) * vp.scrollWidth - ${PARK_AT} * vp.clientWidth;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300))));
  })()`);
}

interface AltCounters {
  redraws: number;
  drawMs: number;
}

const altCounters = (page: Page): Promise<AltCounters> => page.evaluate('({ redraws: window.__wcAlt.redraws, drawMs: window.__wcAlt.drawMs })') as Promise<AltCounters>;

/**
 * One recorded phase. The draws: on the editor page the recorder times its canvas' draws (each gets
 * the context anew); the alternative page keeps its context and counts its own redraws.
 */
async function measurePhase(page: Page, phase: TimelinePhaseId, seconds: number, alternative: boolean, warnings: string[], label: string): Promise<TimelinePhase> {
  checkInterrupted();
  const before = alternative ? await altCounters(page) : null;
  const options = {
    ms: seconds * 1000,
    scrollPx: phase === 'playing' ? 0 : SCROLL_PX_PER_FRAME,
    viewport: VIEWPORT_SELECTOR,
    video: VIDEO,
    canvas: alternative ? null : CANVAS_SELECTOR,
  };
  const run = (await page.evaluate(`window.__wcTimeline.run(${JSON.stringify(options)})`)) as TimelineRun;
  const after = alternative ? await altCounters(page) : null;
  const mediaAdvancedSec = round(run.mediaToSec - run.mediaFromSec);
  if (run.paused) throw new Error(`${label}, ${phase}: the video was paused at the end of the phase`);
  if (mediaAdvancedSec < 0.5 * PLAYBACK_RATE * seconds) warnings.push(`${label}, ${phase}: the video played only ${mediaAdvancedSec} s of ${PLAYBACK_RATE * seconds} s`);
  if (phase !== 'playing' && run.scrollEvents === 0) throw new Error(`${label}, ${phase}: the timeline viewport did not scroll`);
  const draws = before && after ? after.redraws - before.redraws : run.draws;
  const drawMs = before && after ? after.drawMs - before.drawMs : run.drawMs;
  if (draws === 0) throw new Error(`${label}, ${phase}: the timeline canvas was not drawn while playing`);
  return {
    phase,
    ...summarizeFrames(run.frames, run.longTasks),
    mediaAdvancedSec,
    scrollEvents: run.scrollEvents,
    draws,
    meanDrawScriptMs: round(drawMs / draws, 2),
  };
}

async function newPage(context: BrowserContext, url: string, errors: string[]): Promise<Page> {
  checkInterrupted();
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(`${url}: ${err.message}`));
  await page.goto(url, { waitUntil: 'commit' });
  return page;
}

/** The editor page at 16x with the real peaks drawn; returns the viewport's and the content's widths. */
async function openEditorAt16x(page: Page, points: number): Promise<{ viewportWidthPx: number; contentWidthPx: number }> {
  await page.waitForSelector('[data-testid="waveform-canvas"][data-synthetic="false"]', { timeout: 30_000 });
  const zoom = page.getByTestId('timeline-zoom');
  for (let k = 0; k < 10; k++) {
    const shown = (await zoom.textContent())?.trim();
    if (shown === `${TIMELINE_ZOOM}x`) break;
    await page.getByTestId('timeline-zoom-in').click();
    await page.waitForFunction(`document.querySelector('[data-testid="timeline-zoom"]').textContent.trim() !== ${JSON.stringify(shown)}`, undefined, { timeout: 5000 });
  }
  if ((await zoom.textContent())?.trim() !== `${TIMELINE_ZOOM}x`) throw new Error(`the timeline zoom did not reach ${TIMELINE_ZOOM}x`);
  await page.waitForSelector(`[data-testid="waveform-canvas"][data-synthetic="false"][data-peaks="${points}"]`, { timeout: 30_000 });
  await page.waitForFunction(`(() => { const v = document.querySelector(${JSON.stringify(VIDEO)}); return v && v.readyState >= 1 && Math.abs(v.duration - ${TIMELINE_MEDIA_SECONDS}) < 1; })()`, undefined, {
    timeout: 30_000,
    polling: 100,
  });
  return (await page.evaluate(`(() => { const vp = document.querySelector(${JSON.stringify(VIEWPORT_SELECTOR)}); return { viewportWidthPx: vp.clientWidth, contentWidthPx: vp.scrollWidth }; })()`)) as {
    viewportWidthPx: number;
    contentWidthPx: number;
  };
}

export async function benchTimelineUi(o: TimelineUiOptions): Promise<TimelineUiResults> {
  const t0 = performance.now();
  const { dirs, staleWarning } = builtApps();
  if (staleWarning) o.log(`  WARNING: ${staleWarning}`);
  const media = await ensureMedia(THREE_HOUR_TALK, o.log);
  const durationSec = media.probe.durationSec ?? 0;
  if (Math.abs(durationSec - TIMELINE_MEDIA_SECONDS) > 1) throw new Error(`${media.path} lasts ${durationSec} s, not ${TIMELINE_MEDIA_SECONDS} s`);
  o.log(`  media: ${basename(media.path)}, ${round(media.sizeBytes / MB)} MiB, ${durationSec} s${media.generatedSec ? `, generated in ${round(media.generatedSec)} s` : ', cached'}`);

  // the stored peaks, as the media worker builds them
  const tp = performance.now();
  const built = await computePeaks(media.path, { peaksPerSecond: WAVEFORM_STORED_PEAKS_PER_SECOND });
  const buildSec = round((performance.now() - tp) / 1000, 2);
  o.log(`  peaks: ${built.peaks.length} at ${WAVEFORM_STORED_PEAKS_PER_SECOND}/s built in ${buildSec} s (computePeaks)`);

  const stack = await startEditorStack({ s3Endpoint: o.s3Endpoint, words: TIMELINE_WORDS, media: { path: media.path, probe: media.probe, waveform: encodeWaveform(built.durationSec, built.peaks) } });
  // what the editor asks for at 16x must be the stored peaks, resampled
  const points = waveformPoints(TIMELINE_ZOOM * 100);
  const served = (await (await fetch(`${stack.gatewayUrl}/api/videos/${stack.videoId}/waveform?points=${points}`, { headers: stack.auth })).json()) as Waveform;
  const expected = resampleWaveform(built.peaks, points);
  const servedAsStored = served.peaks.length === expected.length && served.peaks.every((p, i) => p === expected[i]) && Math.abs(served.duration - built.durationSec) < 0.01;
  if (!servedAsStored) throw new Error(`GET /api/videos/{id}/waveform?points=${points} did not answer the stored peaks (${served.peaks.length} peaks, ${served.duration} s)`);

  const { shellUrl } = await serveApps(dirs, stack.gatewayUrl);
  checkInterrupted();
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] || '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
  });
  onCleanup('Chromium (timeline)', () => browser.close());
  const deviceScaleFactor = o.deviceScaleFactor ?? 1;
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor });
  await context.addInitScript({ content: TIMELINE_PROBE_SCRIPT });
  // the editor page works as the video's owner (the upload form's session), as after an upload
  await context.addInitScript({ content: pageIdentityScript(stack.session) });
  const browserName = `Chromium ${browser.version()}`;
  const setupSec = round((performance.now() - t0) / 1000, 1);
  o.log(`  gateway, apps and ${browserName} up in ${setupSec} s (${TIMELINE_WORDS} words, ${stack.transcript.paragraphs.length} paragraphs)`);

  const pageErrors: string[] = [];
  const warnings: string[] = [];
  const paths: TimelinePath[] = [];
  const logPhase = (label: string, p: TimelinePhase) =>
    o.log(
      `  ${label}, ${p.phase}: frame time p50 ${p.p50Ms} ms, p95 ${p.p95Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms; ${p.overBudget} of ${p.frames} over ${round(FRAME_BUDGET_MS)} ms, ` +
        `${p.missedFrames} missed, ${p.longTasks} long tasks; ${p.draws} draws of ${p.meanDrawScriptMs} ms script`,
    );

  // ours: the editor page
  const editor = await newPage(context, `${shellUrl}/editor/${stack.videoId}`, pageErrors);
  const { viewportWidthPx, contentWidthPx } = await openEditorAt16x(editor, points);
  await startPlayback(editor);
  await parkPlayhead(editor);
  const ours: TimelinePath = { id: 'ours', label: TIMELINE_LABELS.ours, phases: [] };
  for (const phase of ['playing', 'playing + scrolling'] as const) {
    ours.phases.push(await measurePhase(editor, phase, o.seconds, false, warnings, 'ours'));
    logPhase('ours', ours.phases[ours.phases.length - 1]!);
  }
  paths.push(ours);
  if (o.screenshotDir) await editor.screenshot({ path: join(o.screenshotDir, 'editor.png') });
  await editor.close();

  // the alternative: a static page with the gateway under /api, so it plays the same stream
  const altDir = mkdtempSync(join(tmpdir(), 'wordcut-bench-timeline-'));
  onCleanup(`directory ${altDir}`, () => rmSync(altDir, { recursive: true, force: true }));
  const videoPath = `/api/videos/${stack.videoId}`;
  // the same identity as the editor page: the owner's signed stream URL, the owner's bearer on the waveform call
  const videoRes = await fetch(`${stack.gatewayUrl}${videoPath}`, { headers: stack.auth });
  const { streamUrl } = (await videoRes.json()) as { streamUrl?: string };
  if (!videoRes.ok || !streamUrl) throw new Error(`GET ${videoPath} answered ${videoRes.status} without a signed stream URL`);
  writeFileSync(
    join(altDir, 'index.html'),
    fullCanvasTimelinePage({
      streamUrl: `${streamUrl}&t=bench`,
      waveformUrl: `${videoPath}/waveform?v=original&points=${points}`,
      authorization: stack.auth['authorization'],
      viewportWidthPx,
      zoom: TIMELINE_ZOOM,
    }),
  );
  const altUrl = `${await serveStatic(altDir, ['--proxy', `/api=${stack.gatewayUrl}`], {}, '/')}/`;
  const alt = await newPage(context, altUrl, pageErrors);
  await alt.waitForFunction('window.__wcAlt && (window.__wcAlt.ready || window.__wcAlt.error)', undefined, { timeout: 30_000, polling: 50 });
  const altError = (await alt.evaluate('window.__wcAlt.error')) as string | null;
  if (altError) throw new Error(`the alternative page: ${altError}`);
  const alternativeCanvasPx = (await alt.evaluate('window.__wcAlt.contentWidth')) as number;
  await startPlayback(alt);
  await parkPlayhead(alt);
  const full: TimelinePath = { id: 'alternative', label: TIMELINE_LABELS.alternative, phases: [] };
  for (const phase of ['playing', 'playing + scrolling'] as const) {
    full.phases.push(await measurePhase(alt, phase, o.seconds, true, warnings, 'alternative'));
    logPhase('alternative', full.phases[full.phases.length - 1]!);
  }
  await alt.evaluate('window.__wcAlt.redrawOnScroll = false');
  const scrollFree: TimelinePath = { id: 'alternative-scroll-free', label: TIMELINE_LABELS['alternative-scroll-free'], phases: [await measurePhase(alt, 'playing + scrolling', o.seconds, true, warnings, 'alternative')] };
  logPhase('alternative, no redraw on scroll', scrollFree.phases[0]!);
  paths.push(full, scrollFree);
  if (o.screenshotDir) await alt.screenshot({ path: join(o.screenshotDir, 'alternative.png') });
  await alt.close();
  await browser.close();
  for (const w of warnings) o.log(`  WARNING: ${w}`);

  return {
    media: { file: basename(media.path), sizeMiB: round(media.sizeBytes / MB), durationSec, description: media.description, generatedSec: round(media.generatedSec) },
    peaks: { stored: built.peaks.length, perSecond: WAVEFORM_STORED_PEAKS_PER_SECOND, buildSec, points, servedAsStored },
    words: stack.transcript.words.length,
    browser: browserName,
    viewport: `${VIEWPORT.width}x${VIEWPORT.height}${deviceScaleFactor !== 1 ? ` at ${deviceScaleFactor}x device pixels` : ''}`,
    zoom: TIMELINE_ZOOM,
    playbackRate: PLAYBACK_RATE,
    phaseSec: o.seconds,
    scrollPxPerFrame: SCROLL_PX_PER_FRAME,
    viewportWidthPx,
    contentWidthPx,
    alternativeCanvasPx,
    paths,
    checks: { pageErrors, warnings },
    setupSec,
    sectionSec: round((performance.now() - t0) / 1000, 1),
  };
}
