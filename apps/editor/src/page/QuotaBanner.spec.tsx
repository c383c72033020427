/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Plan, QuotaUsage } from '@wordcut/contracts';
import { editorBridge, sessionStore } from '@wordcut/ui';
import { QUOTA_MODAL_SHOWN_KEY, QuotaBanner } from './QuotaBanner';
import { VIDEO_ID, fakeLayout, makeTranscript, makeVideo, renderEditor, reply, routeFetch } from '../testing/fixtures';

/**
 * The quota banner area fed by the page's session store, and the video page's wiring: the session's
 * quota reaches ExportQuotaContext (Create Clip disabled at 100 %), and the page publishes its
 * video, pending mutes and history length to the editor bridge.
 */

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}.c2ln`;

function startSession(exportsThisMonth: number, exportsPerMonth: number | null = 40, tier = 'pro') {
  sessionStore.setToken(
    jwt({
      sub: 'u1',
      sessionId: 'sess-1',
      videoId: 'pv-1',
      plan: { tier, quotas: { exportsPerDay: null, exportsPerMonth } },
      usageSnapshot: { exportsToday: 0, exportsThisMonth, nextResetTime: '2025-07-01T00:00:00.000Z' },
    }),
  );
}

const OTHER_VIDEO = '11111111-2222-4333-8444-555555555555';

// tooltips measure their trigger: jsdom-polyfills (imported first) gives jsdom a ResizeObserver

afterEach(() => {
  sessionStore.clear();
  sessionStorage.clear();
  localStorage.clear();
  editorBridge.reset();
});

describe('<QuotaBanner />', () => {
  it('shows nothing without a session, below 80 %, or without a positive monthly limit', () => {
    const { container, rerender } = render(<QuotaBanner videoId={VIDEO_ID} />);
    expect(container).toBeEmptyDOMElement();
    act(() => startSession(31, 40)); // 77.5 %
    rerender(<QuotaBanner videoId={VIDEO_ID} />);
    expect(container).toBeEmptyDOMElement();
    act(() => startSession(500, null));
    expect(container).toBeEmptyDOMElement();
    act(() => startSession(500, 0));
    expect(container).toBeEmptyDOMElement();
  });

  it('warns from 80 % (role status) without opening the modal', () => {
    startSession(32, 40);
    render(<QuotaBanner videoId={VIDEO_ID} />);
    const banner = screen.getByRole('status');
    expect(banner).toHaveAttribute('data-level', 'warning');
    expect(banner).toHaveClass('wc-quota-banner--warning');
    expect(banner).toHaveTextContent("You're approaching your export limit (32/40 used this month)...");
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByTestId('quota-modal')).not.toBeInTheDocument();
  });

  it('at 100 % shows the red alert and opens the modal with usage, plan, reset date and the administrator guidance', () => {
    startSession(40, 40, 'starter');
    render(<QuotaBanner videoId={VIDEO_ID} />);
    const modal = screen.getByRole('dialog', { name: 'Export limit reached' });
    expect(within(modal).getByTestId('quota-modal-usage')).toHaveTextContent('40 of 40 exports used this month');
    expect(within(modal).getByTestId('quota-modal-plan')).toHaveTextContent('starter');
    expect(within(modal).getByTestId('quota-modal-reset')).toHaveTextContent('Resets on July 1, 2025');
    expect(modal).toHaveTextContent('ask your account administrator to upgrade your plan');
    expect(within(modal).queryByRole('link')).not.toBeInTheDocument();

    fireEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveAttribute('data-level', 'exceeded');
    expect(alert).toHaveClass('wc-quota-banner--exceeded');
    expect(alert).toHaveTextContent('Export limit reached...');
  });

  it('opens the modal once per video in the browser session', () => {
    startSession(41, 40);
    const first = render(<QuotaBanner videoId={VIDEO_ID} />);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    first.unmount();
    expect(JSON.parse(sessionStorage.getItem(QUOTA_MODAL_SHOWN_KEY)!)).toEqual([VIDEO_ID]);

    const again = render(<QuotaBanner videoId={VIDEO_ID} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Export limit reached...');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    again.unmount();

    render(<QuotaBanner videoId={OTHER_VIDEO} />);
    expect(screen.getByRole('dialog', { name: 'Export limit reached' })).toBeInTheDocument();
  });

  it('follows the session: a refresh that reaches the limit turns the warning into the alert and opens the modal', () => {
    startSession(35, 40);
    render(<QuotaBanner videoId={VIDEO_ID} />);
    expect(screen.getByRole('status')).toHaveTextContent('(35/40 used this month)');
    const usage: QuotaUsage = {
      exportsToday: 1,
      maxPerDay: null,
      exportsThisMonth: 40,
      maxPerMonth: 40,
      nextDailyReset: '2025-06-11T00:00:00.000Z',
      nextMonthlyReset: '2025-07-01T00:00:00.000Z',
    };
    const plan: Plan = { tier: 'pro', quotas: { exportsPerMonth: 40 } };
    act(() => sessionStore.setToken('refreshed-token', { plan, usage }));
    expect(screen.getByRole('dialog', { name: 'Export limit reached' })).toBeInTheDocument();
  });
});

describe('on the video page', () => {
  const videoPath = `/api/videos/${VIDEO_ID}`;
  let layout: ReturnType<typeof fakeLayout>;
  beforeEach(() => {
    layout = fakeLayout();
  });
  afterEach(() => layout.restore());

  function routes() {
    return routeFetch({
      'GET /api/vtt/status': () => reply(200, { configured: true, method: 'VTT Upload', legacyUploadEnabled: true }),
      [`GET ${videoPath}`]: () => reply(200, makeVideo()),
      [`GET ${videoPath}/transcript`]: () => reply(200, makeTranscript()),
      [`GET ${videoPath}/waveform`]: () => reply(200, { peaks: [0.2, 0.8], duration: 30, cached: true }),
      [`GET ${videoPath}/clips`]: () => reply(200, []),
      'PATCH /api/transcripts/7d1f0a52-5c1e-4d3a-9a56-6f0f3d1c2b7e': () => reply(200, { version: 2 }),
    });
  }

  it("provides the session's quota: at 100 % the banner and modal show and Create Clip is disabled", async () => {
    startSession(40, 40);
    routes();
    renderEditor(`/editor/${VIDEO_ID}`);
    await screen.findAllByTestId('transcript-word');
    const modal = await screen.findByRole('dialog', { name: 'Export limit reached' });
    fireEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Export limit reached...');

    fireEvent.keyDown(screen.getAllByTestId('transcript-word')[0]!, { key: 'a', ctrlKey: true });
    const createClip = await screen.findByTestId('selection-create-clip');
    expect(createClip).toHaveAttribute('aria-disabled', 'true');
  });

  it('below the limit Create Clip stays enabled and no banner shows', async () => {
    startSession(3, 40);
    routes();
    renderEditor(`/editor/${VIDEO_ID}`);
    const words = await screen.findAllByTestId('transcript-word');
    fireEvent.keyDown(words[0]!, { key: 'a', ctrlKey: true });
    const createClip = await screen.findByTestId('selection-create-clip');
    expect(createClip).not.toHaveAttribute('aria-disabled');
    expect(createClip).toBeEnabled();
    expect(screen.queryByTestId('quota-banner')).not.toBeInTheDocument();
  });

  it('publishes the open video, its pending mutes and its history length to the editor bridge, and resets on leaving', async () => {
    routes();
    const view = renderEditor(`/editor/${VIDEO_ID}`);
    const words = await screen.findAllByTestId('transcript-word');
    await waitFor(() => expect(editorBridge.get().videoId).toBe(VIDEO_ID));
    expect(editorBridge.get()).toMatchObject({ pendingMutes: [], historyEntries: 0 });

    // mute the focused word ('Hello') at the whisper level
    words[0]!.focus();
    fireEvent.keyDown(words[0]!, { key: '2' });
    await waitFor(() => expect(editorBridge.get().pendingMutes).toEqual([{ startTime: 0.5, endTime: 0.9, level: 'whisper' }]));

    // a replace is one history entry (saved, then persisted; the page reads it within a second)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search transcript' }), { target: { value: 'WordCut' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Replace with' }), { target: { value: 'Wordcut' } });
    await waitFor(() => expect(screen.getByTestId('replace')).toBeEnabled());
    fireEvent.click(screen.getByTestId('replace'));
    await waitFor(() => expect(editorBridge.get().historyEntries).toBe(1), { timeout: 4000 });

    view.unmount();
    expect(editorBridge.get()).toEqual({ videoId: null, pendingMutes: [], historyEntries: 0 });
  });
});
