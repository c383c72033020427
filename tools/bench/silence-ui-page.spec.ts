import { JSDOM } from 'jsdom';
import {
  LONG_FRAME_MS,
  SILENCE_DATA_ID,
  SILENCE_PROBE_SCRIPT,
  silenceAnalysis,
  silencePanelPage,
  silencePauses,
  summarizeScroll,
  summarizeToggles,
  type ToggleSample,
} from './silence-ui-page';

describe('silencePauses', () => {
  it('gives the same pauses for the same seed, in time order, apart and typed by length', () => {
    const pauses = silencePauses(300);
    expect(pauses).toEqual(silencePauses(300));
    expect(pauses).toHaveLength(300);
    expect(new Set(pauses.map((p) => p.id)).size).toBe(300);
    for (const [i, p] of pauses.entries()) {
      expect(p.duration).toBeGreaterThanOrEqual(0.5);
      expect(p.duration).toBeLessThanOrEqual(4);
      expect(p.endTime).toBeGreaterThan(p.startTime);
      if (i > 0) expect(p.startTime - pauses[i - 1]!.endTime).toBeGreaterThanOrEqual(2);
      if (p.duration > 3) expect(p.pauseType).toBe('technical');
      expect(p.recommendation).toBe(p.pauseType === 'technical' || p.pauseType === 'awkward' ? 'remove' : 'keep');
      for (const text of [p.precedingText, p.followingText]) expect(text.split(' ').length).toBeGreaterThanOrEqual(6);
    }
    expect(new Set(pauses.map((p) => p.pauseType))).toEqual(new Set(['technical', 'awkward', 'dramatic', 'natural']));
    expect(silencePauses(300, 1)).not.toEqual(pauses);
  });

  it('makes an analysis whose summary counts them', () => {
    const pauses = silencePauses(50);
    const { summary, silences } = silenceAnalysis(pauses);
    expect(silences).toBe(pauses);
    expect(summary.total).toBe(50);
    expect(summary.recommended).toBe(pauses.filter((p) => p.recommendation === 'remove').length);
  });
});

describe('silencePanelPage', () => {
  it('carries the analysis as JSON that no text in it can close, and loads the bundle after it', () => {
    const analysis = silenceAnalysis(silencePauses(2).map((p) => ({ ...p, reason: '</script><b>x' })));
    const html = silencePanelPage({ title: 'T', css: 'p{}', analysis, script: '/ours.js' });
    const doc = new JSDOM(html).window.document;
    expect(JSON.parse(doc.getElementById(SILENCE_DATA_ID)!.textContent!)).toEqual(analysis);
    expect(doc.querySelector('script[src="/ours.js"]')).not.toBeNull();
    expect(html.indexOf(`id="${SILENCE_DATA_ID}"`)).toBeLessThan(html.indexOf('/ours.js'));
  });
});

describe('summaries', () => {
  it('toggles: nearest-rank percentiles of click -> frame and click -> DOM', () => {
    const samples: ToggleSample[] = Array.from({ length: 20 }, (_, i) => ({ domMs: i, frameMs: i + 10 }));
    expect(summarizeToggles(samples)).toEqual({ samples: 20, p50Ms: 19, p95Ms: 28, maxMs: 29, domP50Ms: 9, domP95Ms: 18 });
    expect(() => summarizeToggles([])).toThrow();
  });

  it('scroll: the p95 interval, the intervals of 50 ms or more and the long frames', () => {
    const frames = [
      { intervalMs: null, busyMs: 5, lagMs: 1 },
      ...Array.from({ length: 18 }, () => ({ intervalMs: 16.7, busyMs: 8, lagMs: 1 })),
      { intervalMs: 33.4, busyMs: 20, lagMs: 1 },
      { intervalMs: LONG_FRAME_MS, busyMs: 45, lagMs: 1 },
    ];
    const s = summarizeScroll({ frames, longFrames: [{ startTime: 1, duration: 60 }] });
    expect(s.frames).toBe(21);
    expect(s.intervalP95Ms).toBe(33.4);
    expect(s.longIntervals).toBe(1);
    expect(s.missedFrames).toBe(1 + 2);
    expect(s.longTasks).toBe(1);
    expect(s.overBudget).toBe(2);
  });
});

describe('SILENCE_PROBE_SCRIPT', () => {
  it('times a click to the row changing and the frame after it', async () => {
    const dom = new JSDOM(
      '<div data-testid="silence-list"><ul><li data-testid="silence-row" data-silence-id="pause-1" data-decision="keep"><input type="checkbox" data-testid="silence-toggle"></li></ul></div>',
      {
        runScripts: 'dangerously',
        pretendToBeVisual: true,
        beforeParse(window) {
          // jsdom has no MessageChannel: one that posts its message as a task
          (window as unknown as { MessageChannel: unknown }).MessageChannel = class {
            port1: { onmessage: (() => void) | null } = { onmessage: null };
            port2 = { postMessage: () => setTimeout(() => this.port1.onmessage?.(), 0) };
          };
        },
      },
    );
    const w = dom.window as unknown as JSDOM['window'] & { __wcSilence: { arm(id: string, d: string): void; result(): Promise<ToggleSample>; rows(): number } };
    w.eval(SILENCE_PROBE_SCRIPT);
    expect(w.__wcSilence.rows()).toBe(1);
    const input = w.document.querySelector('input')!;
    input.addEventListener('click', () => w.document.querySelector('li')!.setAttribute('data-decision', 'remove'));
    w.__wcSilence.arm('pause-1', 'remove');
    input.click();
    const sample = await w.__wcSilence.result();
    // jsdom's event timeStamp is not on performance.now()'s clock, as Chromium's is: only the order is checked
    expect(sample.frameMs).toBeGreaterThanOrEqual(sample.domMs);
    w.close();
  });
});
