/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Metrics, WorkerMetrics } from '@wordcut/contracts';
import { createQueryClient } from '@wordcut/ui';
import { Dashboard } from '../Dashboard';
import { dashboardRoutes, json, router, sampleMetrics, sampleWorkerMetrics, type Routes } from '../testing.spec-helpers';
import { Figures } from './Figures';

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>();

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});

function serve(routes: Routes = {}) {
  fetchMock.mockImplementation(router({ ...dashboardRoutes(), ...routes }));
}

function withMetrics(change: (m: Metrics) => void): Routes {
  const m = sampleMetrics();
  change(m);
  return { 'GET /api/metrics': () => json(200, m) };
}

function withWorkers(change: (w: WorkerMetrics) => void): Routes {
  const w = sampleWorkerMetrics();
  change(w);
  return { 'GET /api/analytics/lambda-metrics': () => json(200, w) };
}

function renderFigures() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Figures />
    </QueryClientProvider>,
  );
}

const section = (testId: string) => screen.findByTestId(testId);
const calls = (path: string) => fetchMock.mock.calls.filter(([url]) => url.split('?')[0] === path);

describe('dashboard figures', () => {
  it('lays the sections out top to bottom, each under an h2', async () => {
    serve();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Dashboard onLoggedOut={() => undefined} />
      </QueryClientProvider>,
    );
    await screen.findByTestId('worker-invocations');
    await screen.findByTestId('section-feature-status');
    const order = [...document.querySelectorAll('[data-testid^="section-"]')].map((el) => el.getAttribute('data-testid'));
    expect(order).toEqual([
      'section-feature-status',
      'section-queue-cards',
      'section-system',
      'section-queue-config',
      'section-work-queue',
      'section-workers',
      'section-provider',
      'section-events',
      'section-videos',
      'section-error-logs',
      'section-failed-webhooks',
    ]);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    for (const name of ['Feature Status', 'Job queue', 'System Information', 'Queue Configuration', 'Media work queue (JetStream)', 'Media workers (last 60 minutes)', 'Provider publishing (last 24 hours)', 'Analytics Events', 'Video Management', 'Error Logs', 'Failed Webhooks']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
  });

  it('shows the feature switches, the queue cards, the system and the queue configuration', async () => {
    serve();
    renderFigures();
    const features = await section('section-feature-status');
    expect(within(features).getByTestId('feature-job-queue')).toHaveTextContent('Enabled');
    expect(within(features).getByTestId('feature-analytics')).toHaveTextContent('Enabled');
    const cards = screen.getByTestId('section-queue-cards');
    expect(within(cards).getByTestId('queue-health')).toHaveTextContent('Healthy');
    expect(cards).toHaveTextContent('Runtime mode: jetstream');
    expect(within(cards).getByTestId('queue-active')).toHaveTextContent('3');
    expect(within(cards).getByTestId('queue-waiting')).toHaveTextContent('12');
    expect(within(cards).getByTestId('queue-failed')).toHaveTextContent('1');
    const system = screen.getByTestId('section-system');
    expect(system).toHaveTextContent('v22.11.0');
    expect(system).toHaveTextContent('linux');
    expect(within(system).getByTestId('system-memory')).toHaveTextContent('512 / 2,048 MB');
    expect(within(system).getByTestId('system-uptime')).toHaveTextContent('62 minutes');
    const config = screen.getByTestId('section-queue-config');
    expect(config).toHaveTextContent('cluster');
    expect(within(config).getByTestId('queue-store-active')).toHaveTextContent('Yes');
    expect(config).toHaveTextContent('media-render');
  });

  it("defaults the queue health to 'unknown' and the counts to 0; switches read Disabled and No", async () => {
    const m = sampleMetrics() as unknown as Record<string, Record<string, unknown>>;
    m.features = { REDIS_QUEUE: false, ENABLE_ANALYTICS: false };
    m.queue = { runtimeMode: 'memory', configMode: 'single', redisActive: false, consumers: [] };
    serve({ 'GET /api/metrics': () => json(200, m) });
    renderFigures();
    const cards = await section('section-queue-cards');
    expect(within(cards).getByTestId('queue-health')).toHaveTextContent('Unknown');
    for (const id of ['queue-active', 'queue-waiting', 'queue-failed']) expect(within(cards).getByTestId(id)).toHaveTextContent('0');
    expect(screen.getByTestId('feature-job-queue')).toHaveTextContent('Disabled');
    expect(screen.getByTestId('queue-store-active')).toHaveTextContent('No');
  });

  it('shows the media work queue with its dead letters: none is green and says so', async () => {
    serve();
    renderFigures();
    const queue = await section('section-work-queue');
    expect(within(queue).getByTestId('work-queue-health')).toHaveTextContent('Healthy');
    expect(within(queue).getByTestId('work-queue-waiting')).toHaveTextContent('7');
    expect(queue).toHaveTextContent('ready to process');
    expect(within(queue).getByTestId('work-queue-in-flight')).toHaveTextContent('2');
    expect(queue).toHaveTextContent('currently processing');
    expect(within(queue).getByTestId('work-queue-delayed')).toHaveTextContent('1');
    expect(queue).toHaveTextContent('scheduled');
    const dlq = within(queue).getByTestId('dlq-count');
    expect(dlq).toHaveTextContent('0');
    expect(dlq).toHaveClass('wc-an-figure--ok');
    expect(queue).toHaveTextContent('After 3 failed retries');
    expect(within(queue).getByTestId('dlq-advice')).toHaveTextContent('No failed jobs');
  });

  it.each([
    [10, 'wc-an-figure--ok', 'OK'],
    [11, 'wc-an-figure--warn', 'Warning'],
    [50, 'wc-an-figure--warn', 'Warning'],
    [51, 'wc-an-figure--bad', 'Critical'],
  ])('colours %i dead letters %s', async (count, colour, label) => {
    serve(
      withMetrics((m) => {
        m.sqs.deadLetterQueue.approximateNumberOfMessages = count;
        m.sqs.health.status = 'warning';
      }),
    );
    renderFigures();
    const queue = await section('section-work-queue');
    expect(within(queue).getByTestId('dlq-count')).toHaveClass(colour);
    expect(within(queue).getByTestId('dlq-level')).toHaveTextContent(label);
    expect(within(queue).getByTestId('dlq-advice')).toHaveTextContent('Review DLQ for failed jobs');
    expect(within(queue).getByTestId('work-queue-health')).toHaveTextContent('Warning');
  });

  it("says 'SQS Queue is disabled' with the switch that enables it", async () => {
    serve(withMetrics((m) => void (m.sqs.enabled = false)));
    renderFigures();
    const queue = await section('section-work-queue');
    expect(queue).toHaveTextContent('SQS Queue is disabled');
    expect(queue).toHaveTextContent('MEDIA_QUEUE_METRICS');
    expect(within(queue).queryByTestId('dlq-count')).not.toBeInTheDocument();
  });

  it('shows the media workers: configuration, figures, cost, summary and recent errors', async () => {
    serve();
    renderFigures();
    const workers = await section('section-workers');
    await within(workers).findByTestId('worker-invocations');
    expect(calls('/api/analytics/lambda-metrics')[0]![0]).toBe('/api/analytics/lambda-metrics?periodMinutes=60');
    expect(within(workers).getByTestId('worker-name')).toHaveTextContent('wordcut-media-workers');
    expect(workers).toHaveTextContent('node22');
    expect(workers).toHaveTextContent('2,048 MB');
    expect(workers).toHaveTextContent('900 s');
    expect(within(workers).getByTestId('worker-invocations')).toHaveTextContent('1,250');
    expect(workers).toHaveTextContent('last 60 minutes');
    expect(within(workers).getByTestId('worker-errors')).toHaveTextContent('5');
    expect(within(workers).getByTestId('worker-error-rate')).toHaveTextContent('0.40%');
    expect(within(workers).getByTestId('worker-duration-avg')).toHaveTextContent('12,346 ms');
    expect(within(workers).getByTestId('worker-duration-max')).toHaveTextContent('45,000 ms');
    expect(within(workers).getByTestId('worker-concurrency')).toHaveTextContent('4');
    expect(within(workers).getByTestId('worker-throttles')).toHaveTextContent('None');
    const cost = within(workers).getByTestId('worker-cost');
    expect(cost).toHaveTextContent('$0.0003 USD');
    expect(cost).toHaveTextContent('$0.5123 USD');
    expect(within(cost).getByTestId('worker-cost-total')).toHaveTextContent('$0.5126 USD for last 60 minutes');
    expect(within(cost).getByTestId('worker-pricing')).toHaveTextContent('Estimate assumes $0.20 per 1M requests plus $0.0000166667 per GB-second.');
    expect(within(workers).getByTestId('worker-summary-error-rate')).toHaveTextContent('Excellent');
    expect(within(workers).getByTestId('worker-summary-duration')).toHaveTextContent('Fast');
    expect(within(workers).getByTestId('worker-summary-throttling')).toHaveTextContent('None');
    const recent = within(workers).getByTestId('worker-recent-error');
    expect(within(recent).getByText('req-01234567')).toHaveAttribute('title', 'req-0123456789abcdef');
    expect(recent).toHaveTextContent('5 minutes ago');
    expect(recent).toHaveTextContent('ffmpeg exited with 1');
  });

  it('labels a high error rate Critical, a slow average Slow, throttles by count, and shows at most 10 recent errors', async () => {
    serve(
      withWorkers((w) => {
        w.metrics.errors.errorRate = 5;
        w.metrics.duration.average = 30_000;
        w.metrics.throttles = 2;
        w.recentErrors = Array.from({ length: 12 }, (_, i) => ({ requestId: `request-${String(i).padStart(8, '0')}`, jobId: `j${i}`, timestamp: 'not a time', message: `m${i}` }));
      }),
    );
    renderFigures();
    const workers = await section('section-workers');
    expect(await within(workers).findByTestId('worker-summary-error-rate')).toHaveTextContent('Critical');
    expect(within(workers).getByTestId('worker-error-rate')).toHaveTextContent('5.00%');
    expect(within(workers).getByTestId('worker-summary-duration')).toHaveTextContent('Slow');
    expect(within(workers).getByTestId('worker-summary-throttling')).toHaveTextContent('2 throttles');
    expect(within(workers).getByTestId('worker-throttles')).toHaveTextContent('2');
    const recent = within(workers).getAllByTestId('worker-recent-error');
    expect(recent).toHaveLength(10);
    expect(recent[0]).toHaveTextContent('not a time');
  });

  it("says 'Lambda Function is not configured' with the variable to set", async () => {
    serve(withWorkers((w) => void (w.enabled = false)));
    renderFigures();
    const workers = await section('section-workers');
    expect(await within(workers).findByText('Lambda Function is not configured')).toBeInTheDocument();
    expect(workers).toHaveTextContent('MEDIA_WORKER_POOL_NAME');
    expect(within(workers).queryByTestId('worker-invocations')).not.toBeInTheDocument();
  });

  it('shows the failure texts with Retry when the worker figures fail, and recovers', async () => {
    let fail = true;
    serve({ 'GET /api/analytics/lambda-metrics': () => (fail ? json(500, { message: 'no pool' }) : json(200, sampleWorkerMetrics())) });
    renderFigures();
    const workers = await section('section-workers');
    const failed = await within(workers).findByTestId('workers-failed');
    expect(failed).toHaveTextContent('Failed to fetch Lambda metrics');
    expect(failed).toHaveTextContent('Check that the analytics service reaches the metrics of the media workers and that the worker pool is configured');
    fail = false;
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    expect(await within(workers).findByTestId('worker-invocations')).toHaveTextContent('1,250');
  });

  it('refetches the worker figures on Refresh', async () => {
    serve();
    renderFigures();
    const workers = await section('section-workers');
    await within(workers).findByTestId('worker-invocations');
    expect(calls('/api/analytics/lambda-metrics')).toHaveLength(1);
    fireEvent.click(within(workers).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls('/api/analytics/lambda-metrics')).toHaveLength(2));
    expect(await within(workers).findByRole('button', { name: 'Refresh' })).toBeEnabled();
  });

  it('shows provider publishing: counts, rates, pending retries, time and the recent failures', async () => {
    serve();
    renderFigures();
    const provider = await section('section-provider');
    expect(within(provider).getByTestId('provider-total')).toHaveTextContent('40');
    expect(within(provider).getByTestId('provider-completed')).toHaveTextContent('36');
    expect(within(provider).getByTestId('provider-processing')).toHaveTextContent('2');
    expect(within(provider).getByTestId('provider-failed')).toHaveTextContent('2');
    expect(within(provider).getByTestId('provider-success-rate')).toHaveTextContent('94.7%');
    expect(within(provider).getByTestId('provider-webhook-rate')).toHaveTextContent('98.5%');
    expect(within(provider).getByTestId('provider-pending')).toHaveTextContent('2 pending');
    expect(within(provider).getByTestId('provider-avg-time')).toHaveTextContent('12.3 s');
    const failure = within(provider).getByTestId('provider-failure');
    expect(failure).toHaveTextContent('UPLOAD_REJECTED');
    expect(within(failure).getByText('abcdef12')).toHaveAttribute('title', 'abcdef123456-7890');
    expect(failure).toHaveTextContent('The provider refused the file');
    expect(failure).toHaveTextContent('3 minutes ago');
  });

  it("says 'No failures in the last 24 hours' without failures, and shows only the error when there is one", async () => {
    serve(
      withMetrics((m) => {
        m.providerIntegration.recentFailures = [];
        m.providerIntegration.webhooks.pendingRetries = 0;
      }),
    );
    renderFigures();
    const provider = await section('section-provider');
    expect(provider).toHaveTextContent('No failures in the last 24 hours');
    expect(within(provider).queryByTestId('provider-pending')).not.toBeInTheDocument();
  });

  it('shows the provider error instead of its figures', async () => {
    serve(withMetrics((m) => void (m.providerIntegration.error = 'Export records are unavailable')));
    renderFigures();
    const provider = await section('section-provider');
    expect(within(provider).getByTestId('provider-error')).toHaveTextContent('Export records are unavailable');
    expect(within(provider).queryByTestId('provider-total')).not.toBeInTheDocument();
  });

  it('shows the analytics events, or how to enable tracking', async () => {
    serve();
    renderFigures();
    const events = await section('section-events');
    expect(within(events).getByTestId('events-today')).toHaveTextContent('17');
    expect(within(events).getByTestId('events-week')).toHaveTextContent('1,234');
    const metrics = within(events).getByTestId('events-metrics');
    expect(metrics).toHaveTextContent('video_uploaded');
    expect(metrics).toHaveTextContent('40');
    expect(metrics).toHaveTextContent('clip_exported');
  });

  it("says 'Analytics tracking is disabled' with the switch", async () => {
    serve(withMetrics((m) => void (m.analytics.enabled = false)));
    renderFigures();
    const events = await section('section-events');
    expect(events).toHaveTextContent('Analytics tracking is disabled');
    expect(events).toHaveTextContent('ENABLE_ANALYTICS');
    expect(within(events).queryByTestId('events-today')).not.toBeInTheDocument();
  });

  it("shows 5 skeleton rows while the metrics load, then 'Error Loading Analytics' with Retry on failure", async () => {
    let release: (r: Response) => void = () => undefined;
    serve({ 'GET /api/metrics': () => new Promise<Response>((resolve) => (release = resolve)) });
    renderFigures();
    const loading = await screen.findByTestId('figures-loading');
    expect(within(loading).getAllByTestId('skeleton-row')).toHaveLength(5);
    await act(async () => release(json(500, { message: 'metrics down' })));
    const failed = await screen.findByTestId('figures-error');
    expect(failed).toHaveTextContent('Error Loading Analytics');
    expect(failed).toHaveTextContent('metrics down');
    serve();
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('section-feature-status')).toBeInTheDocument();
  });

  it('polls the metrics every 30 s and the worker figures every 60 s', async () => {
    jest.useFakeTimers();
    try {
      serve();
      renderFigures();
      await act(async () => jest.advanceTimersByTimeAsync(10));
      expect(calls('/api/metrics')).toHaveLength(1);
      expect(calls('/api/analytics/lambda-metrics')).toHaveLength(1);
      await act(async () => jest.advanceTimersByTimeAsync(30_000));
      expect(calls('/api/metrics')).toHaveLength(2);
      expect(calls('/api/analytics/lambda-metrics')).toHaveLength(1);
      await act(async () => jest.advanceTimersByTimeAsync(30_000));
      expect(calls('/api/metrics')).toHaveLength(3);
      expect(calls('/api/analytics/lambda-metrics')).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
