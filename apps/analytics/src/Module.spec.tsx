/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@wordcut/ui';
import AnalyticsModule from './Module';
import { goHome } from './navigation';
import { dashboardRoutes, json, router } from './testing.spec-helpers';
import { SEARCH_DEBOUNCE_MS } from './VideoManagement';

jest.mock('./navigation', () => ({ goHome: jest.fn() }));

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>();

const video = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  originalName: `talk-${n}.mp4`,
  title: `talk-${n}`,
  userId: n === 2 ? null : 'wordcut:owner',
  createdAt: '2026-01-02T03:04:05Z',
  duration: 65,
  fileSize: 1536 * 1024,
  status: 'completed',
  transcriptCount: 1,
  clipCount: 2,
  keyMomentCount: 5,
  ...extra,
});

const page = (videos: unknown[], total = videos.length) => ({ videos, pagination: { page: 1, limit: 20, total, totalPages: Math.max(1, Math.ceil(total / 20)) }, users: ['wordcut:owner'] });

/** Answers by method and path (the dashboard's other sections with samples); unanswered calls fail the test. */
function serve(routes: Record<string, (init?: RequestInit, url?: string) => Response | Promise<Response>>) {
  fetchMock.mockImplementation(router({ ...dashboardRoutes(), ...routes }));
}

const videoSection = () => screen.getByTestId('section-videos');

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

function renderModule() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AnalyticsModule basePath="/analytics" />
    </QueryClientProvider>,
  );
}

describe('analytics remote', () => {
  it('shows the password login when not signed in, Login disabled while the password is empty', async () => {
    serve({ 'GET /api/analytics/status': () => json(200, { authenticated: false }) });
    renderModule();
    expect(await screen.findByRole('heading', { name: 'Analytics Dashboard' })).toBeInTheDocument();
    const login = screen.getByRole('button', { name: 'Login' });
    expect(login).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    expect(login).toBeEnabled();
  });

  it('says access denied on 401 and on 429 alike', async () => {
    let answer = 401;
    serve({
      'GET /api/analytics/status': () => json(200, { authenticated: false }),
      'POST /api/analytics/login': () => json(answer, { message: 'Access denied: Incorrect password' }),
    });
    renderModule();
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied: Incorrect password');
    const login = fetchMock.mock.calls.find(([url]) => url === '/api/analytics/login')!;
    expect(login[1]?.body).toBe('{"password":"wrong"}');
    answer = 429;
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied: Incorrect password');
  });

  it('signs in, lists the videos in the dashboard formats, and sends the CSRF token on logout', async () => {
    let signedIn = false;
    serve({
      'GET /api/analytics/status': () => json(200, signedIn ? { authenticated: true, csrfToken: 'csrf-1' } : { authenticated: false }),
      'POST /api/analytics/login': () => {
        signedIn = true;
        return json(200, { authenticated: true, csrfToken: 'csrf-1' });
      },
      'GET /api/analytics/videos': () => json(200, page([video(1), video(2, { duration: null, fileSize: null })])),
      'POST /api/analytics/logout': () => json(200, { authenticated: false }),
    });
    renderModule();
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    const row = (await screen.findByRole('rowheader', { name: /talk-1\.mp4/ })).closest('tr')!;
    expect(within(row).getByText('1:05')).toBeInTheDocument();
    expect(within(row).getByText('1.50 MB')).toBeInTheDocument();
    const other = screen.getByRole('rowheader', { name: /talk-2\.mp4/ }).closest('tr')!;
    expect(within(other).getByText('Unknown')).toBeInTheDocument();
    expect(within(other).getAllByText('N/A')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(goHome).toHaveBeenCalled());
    const logout = fetchMock.mock.calls.find(([url]) => url === '/api/analytics/logout')!;
    expect((logout[1]?.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-1');
  });

  it('shows 5 skeleton rows while loading, then the empty state', async () => {
    let release: (r: Response) => void = () => undefined;
    serve({
      'GET /api/analytics/status': () => json(200, { authenticated: true, csrfToken: 't' }),
      'GET /api/analytics/videos': () => new Promise<Response>((resolve) => (release = resolve)),
    });
    renderModule();
    await waitFor(() => expect(within(videoSection()).getAllByTestId('skeleton-row')).toHaveLength(5));
    await act(async () => release(json(200, page([]))));
    expect(await screen.findByText('No videos found')).toBeInTheDocument();
  });

  it("shows 'Error Loading Analytics' with Retry when the list fails", async () => {
    let fail = true;
    serve({
      'GET /api/analytics/status': () => json(200, { authenticated: true, csrfToken: 't' }),
      'GET /api/analytics/videos': () => (fail ? json(500, { message: 'boom' }) : json(200, page([video(1)]))),
    });
    renderModule();
    expect(await screen.findByText('Error Loading Analytics', {}, { timeout: 5000 })).toBeInTheDocument();
    fail = false;
    fireEvent.click(within(videoSection()).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('rowheader', { name: /talk-1\.mp4/ })).toBeInTheDocument();
  });

  it('debounces the search by 300 ms and returns to page 1 on a filter change', async () => {
    jest.useFakeTimers();
    try {
      serve({
        'GET /api/analytics/status': () => json(200, { authenticated: true, csrfToken: 't' }),
        'GET /api/analytics/videos': () => json(200, page([video(1)], 45)),
      });
      renderModule();
      await act(async () => jest.advanceTimersByTimeAsync(10));
      await screen.findByRole('rowheader', { name: /talk-1\.mp4/ });
      fireEvent.click(within(videoSection()).getByRole('button', { name: 'Next' }));
      await act(async () => jest.advanceTimersByTimeAsync(10));
      expect(fetchMock.mock.calls.at(-1)![0]).toMatch(/^\/api\/analytics\/videos\?.*page=2/);
      fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ta' } });
      fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'talk' } });
      await act(async () => jest.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 50));
      expect(fetchMock.mock.calls.some(([url]) => url.includes('search='))).toBe(false);
      await act(async () => jest.advanceTimersByTimeAsync(100));
      const searches = fetchMock.mock.calls.filter(([url]) => url.includes('search='));
      expect(searches.map(([url]) => url)).toEqual(['/api/analytics/videos?search=talk&sortBy=newest&page=1&limit=20']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('previews a single deletion, then deletes with the CSRF token', async () => {
    const id = video(1).id;
    serve({
      'GET /api/analytics/status': () => json(200, { authenticated: true, csrfToken: 'csrf-2' }),
      'GET /api/analytics/videos': () => json(200, page([video(1)])),
      [`GET /api/videos/${id}/deletion-preview`]: () =>
        json(200, {
          video: { id, originalName: 'talk-1.mp4', title: 'talk-1', userId: 'wordcut:owner' },
          transcripts: 1,
          transcriptWords: 120,
          clips: 2,
          keyMoments: 5,
          captionJobs: 0,
          reorderJobs: 1,
          renders: 3,
          silenceAnalyses: 1,
          jobs: 4,
          files: [`videos/${id}/original.mp4`],
          objects: [{ key: `videos/${id}/original.mp4`, size: 1024 }],
          totalSize: 1024,
        }),
      [`DELETE /api/videos/${id}`]: () => json(200, { deleted: [id], objects: 1, message: 'Video deleted.' }),
    });
    renderModule();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete talk-1.mp4' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete video?' });
    expect(within(dialog).getByText('2 clips')).toBeInTheDocument();
    expect(within(dialog).getByText('This action cannot be undone.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const del = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE')!;
    expect((del[1]?.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-2');
  });

  it('shows the bulk bar on selection and enables Delete All only for exactly DELETE', async () => {
    serve({
      'GET /api/analytics/status': () => json(200, { authenticated: true, csrfToken: 't' }),
      'GET /api/analytics/videos': () => json(200, page([video(1), video(2)])),
      'GET /api/analytics/videos/bulk-preview': () =>
        json(200, {
          videos: [],
          totalTranscripts: 2,
          totalClips: 4,
          totalKeyMoments: 10,
          totalCaptionJobs: 0,
          totalReorderJobs: 0,
          totalRenders: 4,
          totalSilenceAnalyses: 0,
          totalJobs: 4,
          totalFiles: [],
          totalSize: 0,
        }),
    });
    renderModule();
    const selectAll = await screen.findByRole('checkbox', { name: 'Select all videos on this page' });
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
    fireEvent.click(selectAll);
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar).toHaveTextContent('2 selected');
    fireEvent.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete All' });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText(/to confirm/), { target: { value: 'delete' } });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText(/to confirm/), { target: { value: 'DELETE' } });
    expect(confirm).toBeEnabled();
  });
});
