import { JSDOM } from 'jsdom';
import { FRAME_BUDGET_MS, MAX_CANVAS_PX, TIMELINE_PROBE_SCRIPT, fullCanvasTimelinePage, summarizeFrames, type FrameSample, type TimelineRun } from './timeline-page';

type TestWindow = JSDOM['window'] & { MessageChannel: unknown; __wcTimeline: { run(o: object): Promise<TimelineRun> } };

/**
 * A jsdom window running scripts, with requestAnimationFrame (pretendToBeVisual), a MessageChannel
 * stand-in that posts its message as a task (jsdom has none), and a canvas 2D context stub that
 * counts fillRect calls (jsdom has no canvas).
 */
function testWindow(html: string, fetchJson?: unknown): { w: TestWindow; fillRects: () => number; fetches: unknown[][] } {
  let fillRects = 0;
  const fetches: unknown[][] = [];
  const dom = new JSDOM(html, {
    runScripts: 'dangerously',
    pretendToBeVisual: true,
    beforeParse(window) {
      const w = window as unknown as { MessageChannel: unknown; HTMLCanvasElement: { prototype: { getContext: () => unknown } }; fetch: unknown };
      w.MessageChannel = class {
        port1: { onmessage: (() => void) | null } = { onmessage: null };
        port2 = { postMessage: () => setTimeout(() => this.port1.onmessage?.(), 0) };
      };
      const ctx = new Proxy({} as Record<string | symbol, unknown>, {
        get: (target, key) => (key === 'fillRect' ? () => void fillRects++ : key in target ? target[key] : () => undefined),
        set: (target, key, value) => ((target[key] = value), true),
      });
      w.HTMLCanvasElement.prototype.getContext = () => ctx;
      if (fetchJson !== undefined)
        w.fetch = (...args: unknown[]) => {
          fetches.push(args);
          return Promise.resolve({ ok: true, json: () => Promise.resolve(fetchJson) });
        };
    },
  });
  return { w: dom.window as unknown as TestWindow, fillRects: () => fillRects, fetches };
}

const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin: a draw that takes `ms`
  }
};

describe('TIMELINE_PROBE_SCRIPT', () => {
  const page = '<video data-testid="video-player"></video><div data-testid="timeline-viewport"><canvas data-testid="waveform-canvas"></canvas></div>';
  const options = { viewport: '[data-testid="timeline-viewport"]', video: '[data-testid="video-player"]' };

  it('records one frame per animation frame until the time is up, each with its interval and main-thread time', async () => {
    const { w } = testWindow(page);
    w.eval(TIMELINE_PROBE_SCRIPT);
    const run = await w.__wcTimeline.run({ ...options, ms: 150, scrollPx: 0 });
    expect(run.frames.length).toBeGreaterThanOrEqual(4);
    expect(run.frames[0]!.intervalMs).toBeNull();
    for (const f of run.frames.slice(1)) expect(f.intervalMs).toBeGreaterThan(0);
    for (const f of run.frames) expect(f.busyMs).toBeGreaterThanOrEqual(f.lagMs);
    expect(run.wallMs).toBeGreaterThanOrEqual(150);
    expect(run.scrollWrites).toBe(0);
    expect(run.draws).toBe(0);
    expect(run.paused).toBe(true);
  });

  it('moves the viewport every frame when asked to scroll', async () => {
    const { w } = testWindow(page);
    w.eval(TIMELINE_PROBE_SCRIPT);
    const run = await w.__wcTimeline.run({ ...options, ms: 100, scrollPx: 30 });
    // every frame but the last, which only ends the run
    expect(run.scrollWrites).toBe(run.frames.length - 1);
  });

  it("times the canvas' draws from getContext to the end of the drawing function, and unwraps it after", async () => {
    const { w } = testWindow(page);
    w.eval(TIMELINE_PROBE_SCRIPT);
    const canvas = w.document.querySelector('canvas')!;
    let drawing = true;
    const draw = () => {
      if (!drawing) return;
      canvas.getContext('2d');
      busyFor(3);
      w.requestAnimationFrame(draw);
    };
    w.requestAnimationFrame(draw);
    const run = await w.__wcTimeline.run({ ...options, ms: 120, scrollPx: 0, canvas: '[data-testid="waveform-canvas"]' });
    drawing = false;
    expect(run.draws).toBeGreaterThanOrEqual(3);
    expect(run.drawMs).toBeGreaterThanOrEqual(3 * run.draws);
    expect(Object.prototype.hasOwnProperty.call(canvas, 'getContext')).toBe(false);
  });

  it('rejects when the page has no timeline viewport', async () => {
    const { w } = testWindow('<video data-testid="video-player"></video>');
    w.eval(TIMELINE_PROBE_SCRIPT);
    await expect(w.__wcTimeline.run({ ...options, ms: 50, scrollPx: 0 })).rejects.toThrow('[data-testid="timeline-viewport"] is not in the page');
  });
});

describe('summarizeFrames', () => {
  const frame = (busyMs: number, intervalMs: number | null = 16.7): FrameSample => ({ intervalMs, busyMs, lagMs: 0.5 });

  it('gives nearest-rank percentiles of the frame time and counts the frames over the 60 Hz budget', () => {
    const frames = [frame(1, null), ...Array.from({ length: 99 }, (_, i) => frame(i + 2))];
    const s = summarizeFrames(frames, []);
    expect(s).toMatchObject({ frames: 100, p50Ms: 50, p95Ms: 95, p99Ms: 99, maxMs: 100, intervalMs: 16.7, maxIntervalMs: 16.7, missedFrames: 0, longTasks: 0, longTaskMaxMs: 0 });
    expect(s.overBudget).toBe(100 - 16);
    expect(FRAME_BUDGET_MS).toBeCloseTo(16.67, 2);
  });

  it('counts the frames missed against the median interval, and the long tasks', () => {
    const frames = [frame(2, null), frame(2), frame(2), frame(2), frame(40, 40), frame(2, 50.1), frame(2, 16.6)];
    const s = summarizeFrames(frames, [
      { startTime: 10, duration: 52 },
      { startTime: 90, duration: 71.25 },
    ]);
    // 40 ms = 2.4 intervals -> 1 missed; 50.1 ms = 3 intervals -> 2 missed
    expect(s.missedFrames).toBe(3);
    expect(s.maxIntervalMs).toBe(50.1);
    expect(s.longTasks).toBe(2);
    expect(s.longTaskMaxMs).toBe(71.3);
    expect(s.overBudget).toBe(1);
  });

  it('refuses no frames', () => {
    expect(() => summarizeFrames([], [])).toThrow(/no frames/);
  });
});

describe('fullCanvasTimelinePage', () => {
  const peaks = Array.from({ length: 1000 }, (_, i) => (i % 10) / 10);
  const input = { streamUrl: '/api/videos/v1/stream/processed?t=a&b="c"', waveformUrl: '/api/videos/v1/waveform?v=original&points=1000', viewportWidthPx: 552, zoom: 16 };

  it('has the video, and a viewport as wide as the editor timeline', () => {
    const doc = new JSDOM(fullCanvasTimelinePage(input)).window.document;
    expect(doc.querySelector('[data-testid="video-player"]')!.getAttribute('src')).toBe(input.streamUrl);
    expect(doc.querySelector('[data-testid="timeline-viewport"]')!.getAttribute('style')).toBe('width:552px');
    expect(doc.querySelectorAll('script')).toHaveLength(1);
  });

  it('draws every bar of a canvas zoom x the viewport wide once the peaks arrive, and again on each scroll', async () => {
    const { w, fillRects } = testWindow(fullCanvasTimelinePage(input), { peaks, duration: 10800, cached: true });
    const alt = () => (w as unknown as { __wcAlt: { ready: boolean; redraws: number; contentWidth: number; redrawOnScroll: boolean } }).__wcAlt;
    await new Promise((r) => setTimeout(r, 20));
    expect(alt().ready).toBe(true);
    expect(alt().contentWidth).toBe(552 * 16);
    const canvas = w.document.querySelector('canvas')!;
    expect(canvas.width).toBe(552 * 16);
    expect(canvas.style.width).toBe(`${552 * 16}px`);
    expect(alt().redraws).toBe(1);
    // every bar (3 px each), 161 ruler ticks and the playhead
    expect(fillRects()).toBe(Math.floor((552 * 16) / 3) + 161 + 1);
    const viewport = w.document.querySelector('[data-testid="timeline-viewport"]')!;
    viewport.dispatchEvent(new w.Event('scroll'));
    expect(alt().redraws).toBe(2);
    alt().redrawOnScroll = false;
    viewport.dispatchEvent(new w.Event('scroll'));
    expect(alt().redraws).toBe(2);
  });

  it('asks for the peaks with the Authorization header it is given, as the editor does, and without one when given none', async () => {
    const withAuth = testWindow(fullCanvasTimelinePage({ ...input, authorization: 'Bearer abc.def' }), { peaks, duration: 10800, cached: true });
    const without = testWindow(fullCanvasTimelinePage(input), { peaks, duration: 10800, cached: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(withAuth.fetches).toEqual([[input.waveformUrl, { headers: { authorization: 'Bearer abc.def' } }]]);
    expect(without.fetches).toEqual([[input.waveformUrl, undefined]]);
  });

  it("caps the canvas at Chromium's largest side", async () => {
    const { w } = testWindow(fullCanvasTimelinePage({ ...input, viewportWidthPx: 3000 }), { peaks, duration: 10800, cached: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(w.document.querySelector('canvas')!.width).toBe(MAX_CANVAS_PX);
  });
});
