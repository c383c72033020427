/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient, sessionStore } from '@wordcut/ui';
import type { RemoteSlotProps } from './RemoteSlot';

jest.mock('./RemoteSlot', () => ({
  RemoteSlot: ({ name, basePath }: RemoteSlotProps) => <div data-testid={`slot-${name}`}>{basePath}</div>,
}));

import { App } from './App';
import { ErrorBoundary } from './ErrorBoundary';

/** A fetch answer (jsdom has no Response): what the code reads of one. */
function reply(status: number, body: unknown): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, statusText: '', text: async () => text } as unknown as Response;
}

let calls: Array<{ url: string; init: RequestInit | undefined }> = [];
/**
 * Answers GET /api/videos/<id> from `videos` (404 otherwise), POST refresh-token from `refresh`
 * and GET quota from `quota`.
 */
function stubFetch(videos: Record<string, unknown> = {}, refresh: () => Response = () => reply(401, 'expired'), quota: () => Response = () => reply(503, 'busy')) {
  calls = [];
  global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (url === '/api/wordcut/refresh-token') return refresh();
    if (url === '/api/wordcut/quota') return quota();
    const id = url.startsWith('/api/videos/') ? url.slice('/api/videos/'.length) : '';
    return id in videos ? reply(200, videos[id]) : reply(404, { message: 'Video not found' });
  }) as unknown as typeof fetch;
}

const refreshCalls = () => calls.filter((c) => c.url === '/api/wordcut/refresh-token');
const quotaCalls = () => calls.filter((c) => c.url === '/api/wordcut/quota');
/** A token whose payload the browser can decode (it does not verify: the gateway does). */
const jwt = (claims: Record<string, unknown>) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
const USAGE = { exportsToday: 3, maxPerDay: 5, exportsThisMonth: 9, maxPerMonth: 10, nextDailyReset: '2025-06-11T00:00:00.000Z', nextMonthlyReset: '2025-07-01T00:00:00.000Z' };

function renderAt(path: string, queryClient: QueryClient = createQueryClient()) {
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <App />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => stubFetch());
afterEach(() => {
  sessionStore.clear();
  jest.useRealTimers();
});

describe('routes', () => {
  it.each(['/', '/editor', '/editor/v1', '/videos', '/videos/v1', '/video/v1'])('%s shows the editor page', (path) => {
    renderAt(path);
    expect(screen.getByTestId('slot-editor')).toBeInTheDocument();
    expect(screen.getByTestId('slot-publish')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'WordCut, home' })).toBeInTheDocument();
  });

  it("says 'No video open' without a video", () => {
    renderAt('/editor');
    expect(screen.getByRole('banner')).toHaveTextContent('No video open');
    expect(calls).toHaveLength(0);
  });

  it('/analytics shows the analytics remote', () => {
    renderAt('/analytics');
    expect(screen.getByTestId('slot-analytics')).toHaveTextContent('/analytics');
    expect(screen.queryByTestId('slot-editor')).not.toBeInTheDocument();
  });

  it('any other path shows the not-found screen', () => {
    renderAt('/nowhere/at/all');
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
  });

  it('?panel=keyclips on an editor route opens the KeyClips panel; Escape closes it', () => {
    renderAt('/editor/v1?panel=keyclips');
    const dialog = screen.getByRole('dialog', { name: 'KeyClips' });
    expect(dialog).toContainElement(screen.getByTestId('slot-keyclips'));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('?panel=keyclips does nothing outside editor routes', () => {
    renderAt('/analytics?panel=keyclips');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('header title', () => {
  it("shows the video's title, fetched once under the editor's query key", async () => {
    stubFetch({ abc: { id: 'abc', title: 'Quarterly review', originalName: 'q3.mp4' } });
    renderAt('/videos/abc');
    expect(screen.getByTestId('header-title')).toHaveTextContent('Video abc'); // until it is known
    expect(await screen.findByText('Quarterly review')).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent('Quarterly review');
    expect(calls.map((c) => c.url)).toEqual(['/api/videos/abc']);
  });

  it('shows the original file name when the title is empty', async () => {
    stubFetch({ v2: { id: 'v2', title: '  ', originalName: 'interview-final.mp4' } });
    renderAt('/editor/v2');
    expect(await screen.findByText('interview-final.mp4')).toBeInTheDocument();
  });

  it('reads the video the editor already loaded from the shared cache (no second request)', () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(['/api/videos', 'v3'], { id: 'v3', title: 'Cached talk', originalName: 'c.mp4' });
    renderAt('/video/v3', queryClient);
    expect(screen.getByTestId('header-title')).toHaveTextContent('Cached talk');
    expect(calls).toHaveLength(0);
  });

  it('keeps the id when the video cannot be loaded', async () => {
    const queryClient = createQueryClient();
    renderAt('/editor/missing', queryClient);
    await waitFor(() => expect(queryClient.getQueryState(['/api/videos', 'missing'])?.status).toBe('error'));
    expect(calls.map((c) => c.url)).toEqual(['/api/videos/missing']);
    expect(screen.getByTestId('header-title')).toHaveTextContent('Video missing');
  });
});

describe('session token refresh', () => {
  it('starts once a token exists and refreshes every 10 minutes with it', async () => {
    jest.useFakeTimers();
    stubFetch({}, () => reply(200, { newToken: 'tok-2', plan: { tier: 'pro', quotas: { exportsPerMonth: 10 } }, usage: { exportsToday: 0, maxPerDay: null, exportsThisMonth: 1, maxPerMonth: 10, nextDailyReset: '2025-06-11T00:00:00.000Z', nextMonthlyReset: '2025-07-01T00:00:00.000Z' } }));
    const view = renderAt('/');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(20 * 60_000);
    });
    expect(calls).toHaveLength(0); // no token, nothing to refresh

    act(() => sessionStore.setToken('tok-1'));
    await act(async () => {
      await jest.advanceTimersByTimeAsync(10 * 60_000);
    });
    // the usage is asked for once when the session starts, then the refresh comes after 10 minutes
    expect(calls.map((c) => [c.url, c.init?.method])).toEqual([
      ['/api/wordcut/quota', undefined],
      ['/api/wordcut/refresh-token', 'POST'],
    ]);
    expect((calls[1]!.init!.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(sessionStore.get().token).toBe('tok-2');
    expect(sessionStorage.getItem('wordcut_session_token')).toBe('tok-2');

    view.unmount();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(30 * 60_000);
    });
    expect(calls).toHaveLength(2);
  });

  it('retries a failed refresh silently after 30 s', async () => {
    jest.useFakeTimers();
    let ok = false;
    stubFetch({}, () => (ok ? reply(200, { newToken: 'tok-b', plan: { tier: 'pro', quotas: {} }, usage: { exportsToday: 0, maxPerDay: null, exportsThisMonth: 0, maxPerMonth: null, nextDailyReset: '2025-06-11T00:00:00.000Z', nextMonthlyReset: '2025-07-01T00:00:00.000Z' } }) : reply(503, 'busy')));
    sessionStore.setToken('tok-a');
    renderAt('/');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(10 * 60_000);
    });
    expect(refreshCalls()).toHaveLength(1);
    expect(sessionStore.get().token).toBe('tok-a');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument(); // silent
    ok = true;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(29_999);
    });
    expect(refreshCalls()).toHaveLength(1);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1);
    });
    expect(refreshCalls()).toHaveLength(2);
    expect(sessionStore.get().token).toBe('tok-b');
  });

  it("replaces the token's usage snapshot with the server's count, once per provider session", async () => {
    stubFetch({}, undefined, () => reply(200, USAGE));
    const snapshot = { exportsToday: 0, exportsThisMonth: 0 };
    const plan = { tier: 'pro', quotas: { exportsPerDay: 5, exportsPerMonth: 10 } };
    sessionStore.setToken(jwt({ sessionId: 's1', plan, usageSnapshot: snapshot }));
    expect(sessionStore.get().usage).toMatchObject({ exportsToday: 0, exportsThisMonth: 0 });
    renderAt('/');
    await waitFor(() => expect(sessionStore.get().usage).toEqual(USAGE));
    expect(quotaCalls()).toHaveLength(1);
    expect((quotaCalls()[0]!.init!.headers as Record<string, string>).authorization).toMatch(/^Bearer h\./);

    // a new token of the same session (a refresh) asks nothing; another session (a clone) asks again
    act(() => sessionStore.setToken(jwt({ sessionId: 's1', plan, usageSnapshot: snapshot }) + 'x', { usage: USAGE }));
    act(() => sessionStore.setToken(jwt({ sessionId: 's2', plan, usageSnapshot: snapshot })));
    await waitFor(() => expect(quotaCalls()).toHaveLength(2));
    await waitFor(() => expect(sessionStore.get().usage).toEqual(USAGE));
  });

  it('keeps the snapshot when the server cannot say', async () => {
    stubFetch({}, undefined, () => reply(503, 'busy'));
    sessionStore.setToken(jwt({ sessionId: 's1', plan: { tier: 'free', quotas: { exportsPerDay: 2 } }, usageSnapshot: { exportsToday: 1, exportsThisMonth: 1 } }));
    renderAt('/');
    await waitFor(() => expect(quotaCalls()).toHaveLength(1));
    await act(async () => undefined);
    expect(sessionStore.get().usage).toMatchObject({ exportsToday: 1, maxPerDay: 2 });
  });
});

describe('<ErrorBoundary />', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('shows the error screen and Try Again renders the content again', () => {
    let fail = true;
    const Child = () => {
      if (fail) throw new Error('boom');
      return <p>content</p>;
    };
    render(
      <ErrorBoundary>
        <Child />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(
      screen.getByText('An error occurred while processing your video. This might be due to a temporary issue.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('content')).toBeInTheDocument();
  });
});
