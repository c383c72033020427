/**
 * Spec helpers of the editor remote (test-only; excluded from the app's tsconfig): the shared
 * browser fixtures of @wordcut/ui (video record, fetch router, providers) and what is the
 * editor's own: a transcript, a render of the editor module at its routes, and a fake layout.
 */
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { EDITOR_ROUTES } from '@wordcut/contracts';
import type { Transcript, Word } from '@wordcut/contracts';
import { VIDEO_ID, renderWithProviders } from '@wordcut/ui/src/testing/fixtures';
import EditorModule from '../Module';

export { VIDEO_ID, makeVideo, reply, routeFetch } from '@wordcut/ui/src/testing/fixtures';
export type { Handler } from '@wordcut/ui/src/testing/fixtures';

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

/** Shows the current address for assertions. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderEditor(path: string, extra?: ReactNode) {
  return renderWithProviders(
    <>
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
    </>,
  );
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
      measureText: (text: string) => ({ width: text.length * 6 }),
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
