/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { render, renderHook, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { reply, routeFetch, VIDEO_ID } from '@wordcut/ui/src/testing/fixtures';
import type { RunningJob } from '../jobs/jobRunner';
import { JOB_SPECS } from '../jobs/specs';
import { SILENCE_DONE_MESSAGE, SilenceOverlay } from './SilenceOverlay';
import { useLeavePrompt } from './useLeavePrompt';

/** The removal overlay's phases, and the leave-page prompt while a removal runs. */

const job = (phase: RunningJob['phase'], status: RunningJob['status'] = null): RunningJob => ({
  spec: { ...JOB_SPECS['silence']!, jobId: 'silence_1' },
  phase,
  status,
});

it('shows starting, then the percent, message and time remaining, then success and loading', async () => {
  routeFetch({ [`GET /api/videos/${VIDEO_ID}/job-estimate`]: () => reply(200, { typicalSec: 7.4, basedOn: 5 }) });
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const { rerender } = render(<SilenceOverlay job={null} starting onCancel={jest.fn()} videoId={VIDEO_ID} />, { wrapper });
  expect(screen.getByTestId('silence-overlay')).toHaveAttribute('data-phase', 'starting');
  expect(screen.getByTestId('silence-overlay-message')).toHaveTextContent('Starting silence removal...');
  // what recent removals on videos of this length took, not a fixed guess
  expect(await screen.findByTestId('job-estimate')).toHaveTextContent('Recent jobs like this on videos of this length took about 7 seconds.');

  rerender(<SilenceOverlay videoId={VIDEO_ID} job={job('running', { status: 'processing', progress: 42.4, message: 'Rendering', estimatedTimeRemaining: 30, error: null })} starting={false} onCancel={jest.fn()} />);
  expect(screen.getByTestId('silence-overlay-percent')).toHaveTextContent('42%');
  expect(screen.getByTestId('silence-overlay-message')).toHaveTextContent('Rendering');
  expect(screen.getByText('Less than a minute remaining')).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: 'Silence removal progress' })).toHaveAttribute('aria-valuenow', '42');
  expect(screen.getByRole('button', { name: 'Cancel job' })).toBeInTheDocument();

  rerender(<SilenceOverlay videoId={VIDEO_ID} job={job('complete')} starting={false} onCancel={jest.fn()} />);
  expect(screen.getByTestId('silence-overlay-percent')).toHaveTextContent('100%');
  expect(screen.getByTestId('silence-overlay-message')).toHaveTextContent(SILENCE_DONE_MESSAGE);
  expect(screen.queryByRole('button', { name: 'Cancel job' })).not.toBeInTheDocument();

  rerender(<SilenceOverlay videoId={VIDEO_ID} job={job('loading')} starting={false} onCancel={jest.fn()} />);
  expect(screen.getByTestId('silence-overlay-message')).toHaveTextContent('Loading Updated Video');

  rerender(<SilenceOverlay videoId={VIDEO_ID} job={null} starting={false} onCancel={jest.fn()} />);
  expect(screen.queryByTestId('silence-overlay')).not.toBeInTheDocument();
});

it('asks before the page is left only while active', () => {
  const ask = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };
  const { rerender, unmount } = renderHook(({ active }) => useLeavePrompt(active), { initialProps: { active: false } });
  expect(ask()).toBe(false);
  rerender({ active: true });
  expect(ask()).toBe(true);
  rerender({ active: false });
  expect(ask()).toBe(false);
  rerender({ active: true });
  unmount();
  expect(ask()).toBe(false);
});
