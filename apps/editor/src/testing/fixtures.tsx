/**
 * Spec helpers (test-only; excluded from the app's tsconfig): fixtures, a fetch router and a
 * render of the editor module inside the shell's providers and editor routes.
 */
import { StrictMode } from 'react';
import type { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { EDITOR_ROUTES } from '@wordcut/contracts';
import type { Transcript, Video, Word } from '@wordcut/contracts';
import { TooltipProvider, createQueryClient } from '@wordcut/ui';
import EditorModule from '../Module';

// The machine running the suites is shared: give async queries room.
configure({ asyncUtilTimeout: 3000 });

export const VIDEO_ID = '0b6f8a52-5c1e-4d3a-9a56-6f0f3d1c2b7e';

export function makeVideo(patch: Partial<Video> = {}): Video {
  return {
    id: VIDEO_ID,
    title: 'Demo talk',
    originalName: 'demo.mp4',
    duration: 30,
    filename: 'demo.mp4',
    processedFilename: null,
    lastProcessedAt: null,
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:05:00.000Z',
    status: 'completed',
    vttProgress: 100,
    vttMethod: 'VTT Upload',
    vttError: null,
    videoChanged: false,
    vttChanged: false,
    wordBywordChanged: false,
    languageCode: 'en',
    width: 1280,
    height: 720,
    hasAudio: true,
    fileSize: 1000,
    mediaVersion: 'original',
    providerSessionId: null,
    providerVideoId: null,
    providerIsClone: false,
    providerMainVideoUploadStatus: 'none',
    providerVttUploadStatus: 'none',
    transcriptId: null,
    ...patch,
  };
}

const word = (text: string, start: number, end: number, group: number, order: number, confidence = 0.95): Word => ({
  text,
  start,
  end,
  confidence,
  group_number: group,
  word_order: order,
});

export function makeTranscript(patch: Partial<Transcript> = {}): Transcript {
  const words = [
    word('Hello', 0.5, 0.9, 0, 0),
    word('world', 1.0, 1.4, 0, 1, 0.6),
    word('this', 2.0, 2.3, 1, 2, 0.3),
    word('is', 2.4, 2.6, 1, 3),
    word('WordCut', 2.7, 3.4, 1, 4),
  ];
  return {
    id: '7d1f0a52-5c1e-4d3a-9a56-6f0f3d1c2b7e',
    videoId: VIDEO_ID,
    version: 1,
    languageCode: 'en',
    words,
    paragraphs: [
      { start: 0.5, end: 1.4, wordIndices: [0, 1] },
      { start: 2.0, end: 3.4, wordIndices: [2, 3, 4] },
    ],
    fillerWords: [],
    updatedAt: '2025-01-02T03:06:00.000Z',
    ...patch,
  };
}

export function reply(status: number, body: unknown): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, statusText: '', text: async () => text } as unknown as Response;
}

export type Handler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/** Installs a fetch mock that answers by `METHOD path` (query string ignored) and records every call. */
export function routeFetch(routes: Record<string, Handler>) {
  const calls: Array<{ method: string; url: string; init: RequestInit | undefined }> = [];
  const mock = jest.fn(async (input: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, url: input, init });
    const path = input.split('?')[0]!;
    const handler = routes[`${method} ${path}`];
    if (!handler) return reply(404, { statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: `no route ${method} ${path}` });
    return handler(input, init);
  });
  global.fetch = mock as unknown as typeof fetch;
  return { calls, mock, count: (method: string, path: string) => calls.filter((c) => c.method === method && c.url.split('?')[0] === path).length };
}

/** Shows the current address for assertions. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderEditor(path: string, extra?: ReactNode) {
  const queryClient = createQueryClient();
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              {EDITOR_ROUTES.map((route) => (
                <Route
                  key={route}
                  path={route}
                  element={
                    <>
                      <EditorModule basePath="/" />
                      <LocationProbe />
                    </>
                  }
                />
              ))}
            </Routes>
          </MemoryRouter>
          {extra}
        </TooltipProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { ...view, queryClient };
}

/** jsdom lays nothing out: give elements a size so the virtual list and the timeline render. */
export function fakeLayout(width = 800, height = 600) {
  const saved = {
    w: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth'),
    h: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight'),
    ctx: HTMLCanvasElement.prototype.getContext,
  };
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => width });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
  const rects: number[][] = [];
  const texts: string[] = [];
  HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
    return {
      canvas: this,
      fillStyle: '',
      font: '',
      textAlign: 'left',
      textBaseline: 'alphabetic',
      setTransform: () => undefined,
      clearRect: () => undefined,
      fillRect: (x: number, y: number, w: number, h: number) => rects.push([x, y, w, h]),
      fillText: (text: string) => texts.push(text),
    } as unknown as CanvasRenderingContext2D;
  } as unknown as typeof HTMLCanvasElement.prototype.getContext;
  return {
    rects,
    texts,
    restore() {
      if (saved.w) Object.defineProperty(HTMLElement.prototype, 'clientWidth', saved.w);
      if (saved.h) Object.defineProperty(HTMLElement.prototype, 'clientHeight', saved.h);
      HTMLCanvasElement.prototype.getContext = saved.ctx;
    },
  };
}
