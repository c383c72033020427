/**
 * Spec helpers shared by the web apps (test-only: excluded from the @wordcut/ui build and bundle;
 * a spec imports them as '@wordcut/ui/src/testing/fixtures', through its app's testing/fixtures):
 * a video record, a fetch router, unsigned session tokens, a toast recorder and a render inside
 * the providers the shell gives every remote.
 */
import { StrictMode } from 'react';
import type { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Video } from '@wordcut/contracts';
import { createQueryClient } from '../queryClient';
import { getToasts, subscribeToToasts } from '../toast';
import type { ToastItem } from '../toast';
import { TooltipProvider } from '../tooltip';

// The machine running the suites is shared: give async queries room.
configure({ asyncUtilTimeout: 3000 });

export const VIDEO_ID = '0b6f8a52-5c1e-4d3a-9a56-6f0f3d1c2b7e';

/** A processed video with a transcript, never published (no provider session); `patch` overrides any field. */
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
    mutedSegments: [],
    transcriptId: null,
    currentVersion: null,
    burnedCaptions: null,
    ...patch,
  };
}

/** An unsigned JWT (header.payload.signature) whose payload the browser can read. */
export function makeToken(claims: Record<string, unknown>): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64(claims)}.c2lnbmF0dXJl`;
}

/** A fetch answer (jsdom has no Response): what the code reads of one. */
export function reply(status: number, body: unknown, statusText = ''): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  } as unknown as Response;
}

export type Handler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

export interface FetchCall {
  method: string;
  url: string;
  init: RequestInit | undefined;
}

/**
 * Installs a fetch mock that answers by `METHOD path` (query string ignored; 404 for a route it
 * does not know) and records every call: `count` the calls of a route, `bodies` their JSON bodies
 * (exact url), `authOf` a call's authorization header.
 */
export function routeFetch(routes: Record<string, Handler>) {
  const calls: FetchCall[] = [];
  const mock = jest.fn(async (input: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, url: input, init });
    const path = input.split('?')[0]!;
    const handler = routes[`${method} ${path}`];
    if (!handler) return reply(404, { statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: `no route ${method} ${path}` });
    return handler(input, init);
  });
  global.fetch = mock as unknown as typeof fetch;
  const count = (method: string, path: string) => calls.filter((c) => c.method === method && c.url.split('?')[0] === path).length;
  const bodies = (method: string, path: string) =>
    calls.filter((c) => c.method === method && c.url === path).map((c) => (c.init?.body ? (JSON.parse(String(c.init.body)) as Record<string, unknown>) : undefined));
  const authOf = (call: FetchCall) => new Headers(call.init?.headers).get('authorization');
  return { calls, mock, count, bodies, authOf, routes };
}

/** Every toast raised from now on, in order (the area shows one at a time, so later ones replace earlier). */
export function recordToasts(): { all: Array<Pick<ToastItem, 'title' | 'description' | 'variant'>>; stop: () => void } {
  const all: Array<Pick<ToastItem, 'title' | 'description' | 'variant'>> = [];
  let lastId: string | null = null;
  const stop = subscribeToToasts(() => {
    const top = getToasts()[0];
    if (top && top.id !== lastId) {
      lastId = top.id;
      all.push({ title: top.title, description: top.description, variant: top.variant });
    }
  });
  return { all, stop };
}

/** Renders `ui` inside the providers the shell gives a remote: strict mode, a fresh QueryClient with the page's defaults, tooltips. */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>{ui}</TooltipProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { ...view, queryClient };
}
