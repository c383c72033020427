/**
 * Spec helpers (test-only; excluded from the app's tsconfig and bundle): fixtures, unsigned
 * session tokens, a fetch router, a toast recorder and a render of the publish module inside the
 * shell's providers at an editor route.
 */
import { StrictMode } from 'react';
import { configure, render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { ExportJobStatus, Video } from '@wordcut/contracts';
import { TooltipProvider, createQueryClient, getToasts } from '@wordcut/ui';
import type { ToastItem } from '@wordcut/ui';
import PublishModule from '../Module';
import type { PublishClipRecord } from '../api';

// The machine running the suites is shared: give async queries room.
configure({ asyncUtilTimeout: 3000 });

export const VIDEO_ID = '0b6f8a52-5c1e-4d3a-9a56-6f0f3d1c2b7e';
export const SESSION_ID = 'sess-original';
export const videoPath = `/api/videos/${VIDEO_ID}`;
export const clipsPath = `${videoPath}/clips`;

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
    videoChanged: true,
    vttChanged: true,
    wordBywordChanged: false,
    languageCode: 'en',
    width: 1280,
    height: 720,
    hasAudio: true,
    fileSize: 1000,
    mediaVersion: 'original',
    providerSessionId: SESSION_ID,
    providerVideoId: 'pv-1',
    providerIsClone: false,
    providerMainVideoUploadStatus: 'none',
    providerVttUploadStatus: 'none',
    mutedSegments: [],
    transcriptId: null,
    ...patch,
  };
}

export function makeClip(patch: Partial<PublishClipRecord> & Pick<PublishClipRecord, 'id' | 'name'>): PublishClipRecord {
  return {
    videoId: VIDEO_ID,
    startTime: 1,
    endTime: 13,
    aspectRatio: '9:16',
    status: 'completed',
    providerUploadStatus: 'none',
    providerVideoId: null,
    ...patch,
  };
}

export const CLIP_A = '11111111-1111-4111-8111-111111111111';
export const CLIP_B = '22222222-2222-4222-8222-222222222222';
export const CLIP_C = '33333333-3333-4333-8333-333333333333';

/** An unsigned JWT (header.payload.signature) whose payload the browser can read. */
export function makeToken(claims: Record<string, unknown>): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64(claims)}.c2lnbmF0dXJl`;
}

export function sessionToken(patch: Record<string, unknown> = {}): string {
  return makeToken({
    sub: 'user-1',
    sessionId: SESSION_ID,
    videoId: 'pv-1',
    plan: { tier: 'pro', quotas: { exportsPerDay: 10, exportsPerMonth: 100 } },
    usageSnapshot: { exportsToday: 1, exportsThisMonth: 5 },
    languageCode: 'en',
    ...patch,
  });
}

export function jobStatus(patch: Partial<ExportJobStatus> & Pick<ExportJobStatus, 'status'>): ExportJobStatus {
  return {
    jobId: 'export_1',
    progress: 0,
    currentStep: '',
    estimatedCompletion: null,
    videoId: VIDEO_ID,
    items: [],
    error: null,
    retryOf: null,
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    ...patch,
  };
}

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

/** Installs a fetch mock that answers by `METHOD path` (query string ignored) and records every call. */
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

const TOAST_STORE = Symbol.for('wordcut.ui.toast-store');

/** Every toast raised from now on, in order (the area shows one at a time, so later ones replace earlier). */
export function recordToasts(): { all: Array<Pick<ToastItem, 'title' | 'description' | 'variant'>>; stop: () => void } {
  getToasts(); // creates the page's store
  const store = (globalThis as unknown as Record<symbol, { items: readonly ToastItem[]; listeners: Set<() => void> }>)[TOAST_STORE]!;
  const all: Array<Pick<ToastItem, 'title' | 'description' | 'variant'>> = [];
  let lastId: string | null = null;
  const listener = () => {
    const top = store.items[0];
    if (top && top.id !== lastId) {
      lastId = top.id;
      all.push({ title: top.title, description: top.description, variant: top.variant });
    }
  };
  store.listeners.add(listener);
  return { all, stop: () => store.listeners.delete(listener) };
}

export function renderPublish(path = `/editor/${VIDEO_ID}`) {
  const queryClient = createQueryClient();
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <MemoryRouter initialEntries={[path]}>
            <PublishModule basePath="/" />
          </MemoryRouter>
        </TooltipProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { ...view, queryClient };
}
