/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { KeyMoment, KeyMomentsResponse } from '@wordcut/contracts';
import { VIDEO_ID, makeVideo, recordToasts, renderWithProviders, reply, routeFetch } from '@wordcut/ui/src/testing/fixtures';
import KeyClipsModule from './Module';

/**
 * The panel against a fake fetch router: the empty state and the analysis, the cards and the
 * first moment selected, reasons on request, the framing controls and their labels, the export
 * request, its toast and the close after 600 ms, the errors, and the Guide (Escape closes it).
 */

const videoPath = `/api/videos/${VIDEO_ID}`;
const momentsPath = `${videoPath}/key-moments`;
const findPath = `${videoPath}/find-key-moments`;

function moment(n: number, patch: Partial<KeyMoment> = {}): KeyMoment {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    title: `Moment ${n}`,
    description: `What moment ${n} says`,
    category: n === 1 ? 'Actionable' : 'Quotable',
    engagement: 90 - n,
    startTime: n * 20,
    endTime: n * 20 + 17,
    duration: 17,
    reasons: [`reason of ${n}`, '3 whole sentences, 17 s'],
    ...patch,
  };
}

const FOUND: KeyMomentsResponse = { moments: [moment(1), moment(2)], analysedAt: '2026-11-27T03:00:00.000Z', source: 'local' };
const NONE: KeyMomentsResponse = { moments: [], analysedAt: null, source: null };
const exportPath = (id: string) => `/api/key-moments/${id}/export`;
const EXPORTED = {
  id: '11111111-1111-4111-8111-111111111111',
  jobId: 'clip_1',
  name: 'Moment 1',
  aspectRatio: '9:16',
  status: 'pending',
  momentId: moment(1).id,
  mode: 'crop',
  width: 1080,
  height: 1920,
  reframe: { offsetX: 0, offsetY: 0, scale: 1 },
  upscale: 1.78,
};

function Location() {
  const location = useLocation();
  return <span data-testid="location">{location.search}</span>;
}

function renderPanel() {
  return renderWithProviders(
    <MemoryRouter initialEntries={[`/editor/${VIDEO_ID}?panel=keyclips`]}>
      <Routes>
        <Route
          path="/editor/:videoId"
          element={
            <>
              <KeyClipsModule basePath="/" />
              <Location />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

let toasts: ReturnType<typeof recordToasts>;
beforeEach(() => {
  toasts = recordToasts();
});
afterEach(() => {
  toasts.stop();
  jest.useRealTimers();
});

describe('KeyClips panel', () => {
  it('offers the analysis when there are no moments, then shows the cards with the first selected', async () => {
    const api = routeFetch({
      [`GET ${videoPath}`]: () => reply(200, makeVideo({ width: 1920, height: 1080 })),
      [`GET ${momentsPath}`]: () => reply(200, NONE),
      [`POST ${findPath}`]: () => reply(200, FOUND),
    });
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'Discover Engaging Moments' })).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Find Key Moments' }));
    const cards = await screen.findAllByTestId('keyclips-moment');
    expect(api.count('POST', findPath)).toBe(1);
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveAttribute('data-selected', 'true');
    expect(within(cards[0]!).getByText('Actionable')).toBeVisible();
    expect(within(cards[0]!).getByText('89% engagement')).toBeVisible();
    expect(within(cards[0]!).getByText('0:20 – 0:37 · 17s')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Moment 1', level: 3 })).toBeVisible();

    // reasons on request
    expect(within(cards[1]!).queryByText('reason of 2')).not.toBeVisible();
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Why this moment?' }));
    expect(within(cards[1]!).getByText('reason of 2')).toBeVisible();

    // selecting another moment
    fireEvent.click(within(cards[1]!).getByRole('button', { name: /Moment 2/ }));
    expect(await screen.findByRole('heading', { name: 'Moment 2', level: 3 })).toBeVisible();
    expect(screen.getAllByTestId('keyclips-moment')[1]).toHaveAttribute('data-selected', 'true');
  });

  it('says No Moments Found when the analysis finds none, and Analysis Failed with the server message', async () => {
    let answer = () => reply(200, NONE);
    routeFetch({
      [`GET ${videoPath}`]: () => reply(200, makeVideo()),
      [`GET ${momentsPath}`]: () => reply(200, NONE),
      [`POST ${findPath}`]: () => answer(),
    });
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Find Key Moments' }));
    expect(await screen.findByText('Could not identify key moments in this video')).toBeVisible();
    expect(toasts.all).toContainEqual({ title: 'No Moments Found', description: 'Could not identify key moments in this video', variant: 'destructive' });
    answer = () => reply(409, { statusCode: 409, code: 'CONFLICT', error: 'Conflict', message: 'The video has no transcript yet.' });
    fireEvent.click(screen.getByRole('button', { name: 'Find Key Moments' }));
    await waitFor(() => expect(toasts.all).toContainEqual({ title: 'Analysis Failed', description: 'The video has no transcript yet.', variant: 'destructive' }));
    answer = () => reply(500, 'oops');
    fireEvent.click(screen.getByRole('button', { name: 'Find Key Moments' }));
    await waitFor(() => expect(toasts.all).toContainEqual({ title: 'Analysis Failed', description: 'Failed to analyze video', variant: 'destructive' }));
  });

  it('frames with the ratio buttons and zoom, labels the export, exports, toasts and closes after 600 ms', async () => {
    const api = routeFetch({
      [`GET ${videoPath}`]: () => reply(200, makeVideo({ width: 1920, height: 1080 })),
      [`GET ${momentsPath}`]: () => reply(200, FOUND),
      [`GET ${videoPath}/clips`]: () => reply(200, []),
      [`POST ${exportPath(moment(1).id)}`]: () => reply(202, EXPORTED),
    });
    renderPanel();
    const exportButton = await screen.findByTestId('keyclips-export');
    // jsdom has no picture: the size comes from the server after 30 tries 200 ms apart
    await waitFor(() => expect(screen.getByTestId('keyclips-hint')).not.toHaveTextContent('Detecting'), { timeout: 8000 });
    expect(exportButton).toHaveTextContent('Export Original Clip');
    const ratios = screen.getByRole('group', { name: 'Aspect ratio' });
    expect(within(ratios).getAllByRole('button')).toHaveLength(6);
    fireEvent.click(within(ratios).getByRole('button', { name: /^16:9/ }));
    expect(exportButton).toHaveTextContent('Export 16:9 Clip');
    fireEvent.click(within(ratios).getByRole('button', { name: /^9:16/ }));
    expect(within(ratios).getByRole('button', { name: /^9:16/ })).toHaveAttribute('aria-pressed', 'true');
    expect(exportButton).toHaveTextContent('Export 9:16 (Reframed)');
    expect(screen.queryByTestId('keyclips-upscale-warning')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByRole('slider', { name: 'Zoom' })).toHaveValue('1.2');
    expect(screen.getByTestId('keyclips-upscale-warning')).toHaveTextContent('Heavy upscaling');
    fireEvent.keyDown(screen.getByTestId('keyclips-frame'), { key: 'ArrowRight' });

    jest.useFakeTimers();
    fireEvent.click(exportButton);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(10);
    });
    const [body] = api.bodies('POST', exportPath(moment(1).id));
    expect(body).toMatchObject({ aspectRatio: '9:16', mode: 'reframe', reframe: { scale: 1.2, offsetY: 0 } });
    expect((body!['reframe'] as { offsetX: number }).offsetX).toBeGreaterThan(0);
    expect(toasts.all).toContainEqual({ title: 'Clip created', description: 'Moment 1 is being processed...', variant: 'default' });
    expect(screen.getByTestId('location')).toHaveTextContent('?panel=keyclips');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(600);
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^$/);
    expect(api.count('GET', `${videoPath}/clips`)).toBe(0); // not watched here: invalidated, not fetched
  }, 15000);

  it('says Export Failed with the message', async () => {
    routeFetch({
      [`GET ${videoPath}`]: () => reply(200, makeVideo({ width: 1920, height: 1080 })),
      [`GET ${momentsPath}`]: () => reply(200, FOUND),
      [`POST ${exportPath(moment(1).id)}`]: () => reply(409, { statusCode: 409, code: 'CONFLICT', error: 'Conflict', message: 'The video has changed since this moment was found. Find key moments again.' }),
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId('keyclips-export'));
    await waitFor(() =>
      expect(toasts.all).toContainEqual({ title: 'Export Failed', description: 'The video has changed since this moment was found. Find key moments again.', variant: 'destructive' }),
    );
  });

  it('opens the Guide, which Escape closes without closing the panel', async () => {
    routeFetch({ [`GET ${videoPath}`]: () => reply(200, makeVideo()), [`GET ${momentsPath}`]: () => reply(200, NONE) });
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Guide' }));
    const guide = screen.getByRole('dialog', { name: 'KeyClips Guide' });
    for (const heading of ['What is KeyClips?', 'Quick start', 'The five categories', 'Pass-through or cropping', 'Upscaling', 'Tips and special cases']) {
      expect(within(guide).getByRole('heading', { name: heading })).toBeVisible();
    }
    expect(within(guide).getByRole('button', { name: 'Close guide' })).toHaveFocus();
    const escape = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    act(() => {
      within(guide).getByRole('button', { name: 'Close guide' }).dispatchEvent(escape);
    });
    expect(escape.defaultPrevented).toBe(true);
    expect(screen.queryByRole('dialog', { name: 'KeyClips Guide' })).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('?panel=keyclips');
  });

  it('closes with its close button', async () => {
    routeFetch({ [`GET ${videoPath}`]: () => reply(200, makeVideo()), [`GET ${momentsPath}`]: () => reply(200, NONE) });
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Close KeyClips' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^$/);
  });
});
