import { JSDOM } from 'jsdom';
import type { Paragraph, Word } from '@wordcut/contracts';
import { PAGE_PROBE_SCRIPT, firstDifference, longFramesIn, plainTranscriptPage, summarizePaintSamples, type PaintSample } from './editor-ui-page';

const word = (text: string, start: number, confidence = 0.9, group_number = 0): Word => ({ text, start, end: start + 0.4, confidence, group_number, word_order: 0 });

/** What the probe uses of a browser window, in jsdom. */
interface ProbeWindow {
  __wcBench: {
    firstWordsPaint: number | null;
    arm(type: string): void;
    result(timeoutMs?: number): Promise<PaintSample>;
    waitText(selector: string, text: string, timeoutMs: number): Promise<number>;
  };
}

/**
 * A jsdom window with the probe installed (not closed after a test: closing removes the nodes its
 * observer watches). jsdom has requestAnimationFrame (pretendToBeVisual) but
 * no MessageChannel: a stand-in posts its message as a task, as the browser does.
 */
function probeWindow(html: string): { window: JSDOM['window']; bench: ProbeWindow['__wcBench'] } {
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true });
  const w = dom.window as unknown as JSDOM['window'] & { MessageChannel: unknown };
  w.MessageChannel = class {
    port1: { onmessage: (() => void) | null } = { onmessage: null };
    port2 = { postMessage: () => setTimeout(() => this.port1.onmessage?.(), 0) };
  };
  w.eval(PAGE_PROBE_SCRIPT);
  return { window: w, bench: (w as unknown as ProbeWindow).__wcBench };
}

/** A trusted-like event whose timeStamp is on the page clock, `ageMs` before it is dispatched. */
function eventAged(w: JSDOM['window'], type: 'click' | 'keydown', ageMs: number): Event {
  const e = type === 'click' ? new w.MouseEvent('click', { bubbles: true }) : new w.KeyboardEvent('keydown', { bubbles: true, key: 'Delete' });
  Object.defineProperty(e, 'timeStamp', { value: w.performance.now() - ageMs });
  return e;
}

describe('PAGE_PROBE_SCRIPT', () => {
  it('records the first frame painted after a transcript word appears', async () => {
    const { window: w, bench } = probeWindow('<main></main>');
    await new Promise((r) => setTimeout(r, 40));
    expect(bench.firstWordsPaint).toBeNull();
    const before = w.performance.now();
    w.document.querySelector('main')!.innerHTML = '<span data-testid="transcript-word">So</span>';
    await new Promise((r) => setTimeout(r, 80));
    expect(bench.firstWordsPaint).toBeGreaterThan(before);
  });

  it('times the armed event from its timeStamp to after the next frame, and no other event', async () => {
    const { window: w, bench } = probeWindow('<button>x</button>');
    bench.arm('keydown');
    w.document.querySelector('button')!.dispatchEvent(eventAged(w, 'click', 1));
    await expect(bench.result(60)).rejects.toThrow(/no keydown event/);
    bench.arm('click');
    const clicked = eventAged(w, 'click', 3);
    w.document.querySelector('button')!.dispatchEvent(clicked);
    const sample = await bench.result();
    expect(sample.ts).toBe(clicked.timeStamp);
    expect(sample.queueMs).toBeGreaterThanOrEqual(3);
    expect(sample.frameMs).toBeGreaterThanOrEqual(sample.queueMs);
    expect(sample.latencyMs).toBeGreaterThanOrEqual(sample.frameMs);
  });

  it('resolves when an element shows the awaited text, and rejects when it does not in time', async () => {
    const { window: w, bench } = probeWindow('<span data-testid="search-count">0 of 0</span>');
    const count = w.document.querySelector('span')!;
    const shown = bench.waitText('[data-testid="search-count"]', '1 of 12', 2000);
    setTimeout(() => (count.textContent = '1 of 12'), 20);
    await expect(shown).resolves.toBeGreaterThan(0);
    await expect(bench.waitText('[data-testid="search-count"]', '1 of 13', 50)).rejects.toThrow(/shows "1 of 12", not "1 of 13"/);
  });
});

describe('plainTranscriptPage', () => {
  const words = [word('So', 0.5), word('<we>', 1, 0.6), word('cut', 1.5, 0.3), word('A&B', 62, 0.95, 1), word('done.', 62.5, 0.8, 1)];
  const paragraphs: Paragraph[] = [
    { start: 0.5, end: 1.9, wordIndices: [0, 1, 2], groupNumber: 0 } as Paragraph,
    { start: 62, end: 62.9, wordIndices: [3, 4], groupNumber: 1 } as Paragraph,
  ];
  const html = plainTranscriptPage({ words, paragraphs, css: '.wc-word{color:red}</style><b>', widthPx: 543, maxHeightPx: 800 });

  it("has every word once, in order, with the editor's classes, attributes and paragraph timestamps", () => {
    const doc = new JSDOM(html).window.document;
    const spans = [...doc.querySelectorAll('[data-testid="transcript-word"]')];
    expect(spans.map((s) => s.textContent)).toEqual(['So', '<we>', 'cut', 'A&B', 'done.']);
    expect(spans.map((s) => s.getAttribute('data-word-index'))).toEqual(['0', '1', '2', '3', '4']);
    expect(spans.map((s) => s.className)).toEqual(['wc-word wc-word--good', 'wc-word wc-word--medium', 'wc-word wc-word--low', 'wc-word wc-word--good', 'wc-word wc-word--good']);
    expect(spans[1]!.getAttribute('title')).toBe('0:01 · confidence 60%');
    expect([...doc.querySelectorAll('.wc-paragraph__time')].map((t) => t.textContent)).toEqual(['0:00', '1:02']);
    expect(doc.querySelector('.wc-paragraph__text')!.textContent).toBe('So <we> cut');
  });

  it('keeps the CSS inside its style element and sizes the scroll box like the editor list', () => {
    const doc = new JSDOM(html).window.document;
    expect(doc.querySelectorAll('style')).toHaveLength(1);
    expect(doc.querySelector('b')).toBeNull();
    expect(doc.querySelector('main')!.getAttribute('style')).toContain('width:543px');
    expect(doc.querySelector('[data-testid="transcript-list"]')!.getAttribute('style')).toBe('max-height:800px');
  });

  it('selects the clicked word and only that one', () => {
    const doc = new JSDOM(html, { runScripts: 'dangerously' }).window.document;
    const at = (i: number) => doc.querySelector(`[data-word-index="${i}"]`)!;
    at(1).dispatchEvent(new doc.defaultView!.MouseEvent('click', { bubbles: true }));
    expect(at(1).classList.contains('wc-word--selected')).toBe(true);
    at(3).dispatchEvent(new doc.defaultView!.MouseEvent('click', { bubbles: true }));
    expect(doc.querySelectorAll('.wc-word--selected')).toHaveLength(1);
    expect(at(3).getAttribute('aria-pressed')).toBe('true');
    expect(at(1).getAttribute('aria-pressed')).toBe('false');
  });
});

describe('summarizePaintSamples', () => {
  it('gives nearest-rank p50 and p95, the max and the means', () => {
    const samples = Array.from({ length: 20 }, (_, i): PaintSample => ({ ts: i, latencyMs: i + 1, frameMs: i / 2, queueMs: 1 }));
    expect(summarizePaintSamples(samples)).toEqual({ samples: 20, p50Ms: 10, p95Ms: 19, maxMs: 20, meanQueueMs: 1, meanToFrameMs: 4.8 });
  });

  it('refuses no samples', () => {
    expect(() => summarizePaintSamples([])).toThrow(/no samples/);
  });
});

describe('longFramesIn', () => {
  const frames = [
    { startTime: 100, duration: 60, script: 'a' },
    { startTime: 900, duration: 130.44, script: 'BODY.onsubmit (124 ms)' },
    { startTime: 1000, duration: 200, script: 'b' },
  ];

  it('counts the frames that started in the window and names the longest', () => {
    expect(longFramesIn(frames, 'undo', 100, 1000)).toEqual({ phase: 'undo', count: 2, maxMs: 130.4, longestScript: 'BODY.onsubmit (124 ms)' });
  });

  it('says none for an empty window', () => {
    expect(longFramesIn(frames, 'search', 1001, 5000)).toEqual({ phase: 'search', count: 0, maxMs: 0, longestScript: '' });
  });
});

describe('firstDifference', () => {
  const original = [word('So', 0.5), word('we', 1)];

  it('is null for the same words', () => {
    expect(firstDifference(original, original.map((w) => ({ ...w })))).toBeNull();
  });

  it('names the first word and field that differ', () => {
    expect(firstDifference(original, [original[0]!, { ...original[1]!, confidence: 1 }])).toBe('word 1 confidence: 0.9 -> 1');
    expect(firstDifference(original, [{ ...original[0]!, text: 'edited' }, original[1]!])).toBe('word 0 text: "So" -> "edited"');
  });

  it('names a missing or extra word', () => {
    expect(firstDifference(original, [original[0]!])).toBe("word 1: 'we' -> none (2 -> 1 words)");
  });
});
