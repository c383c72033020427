import { useQuery } from '@tanstack/react-query';
import type { WorkerMetrics } from '@wordcut/contracts';
import { describeError } from '@wordcut/ui';
import { ANALYTICS_KEYS, fetchWorkerMetrics, WORKER_METRICS_PERIOD_MINUTES, WORKER_METRICS_REFRESH_MS } from '../api';
import { formatCount, formatMs, formatPercent, REQUEST_ID_CHARS, shortId } from '../format';
import { durationLevel, errorRateLevel, formatCost, pricingNote, throttleLevel } from './levels';
import { Badge, Field, FigureSection, RelativeTime, Stat, Unavailable } from './parts';

/** The environment variable that names the media worker pool. */
export const WORKER_POOL_SWITCH = 'MEDIA_WORKER_POOL_NAME';
/** Recent errors: the first 10 of the last 24 hours (each named by the first 12 characters of its request id). */
export const RECENT_ERRORS_SHOWN = 10;

/**
 * The media worker pool over the last 60 minutes (refetched every 60 s and on Refresh):
 * its configuration, invocations, errors, durations, concurrency, throttles, estimated cost, a
 * performance summary and the recent errors.
 */
export function Workers() {
  const workers = useQuery({
    queryKey: ANALYTICS_KEYS.workerMetrics(WORKER_METRICS_PERIOD_MINUTES),
    queryFn: () => fetchWorkerMetrics(WORKER_METRICS_PERIOD_MINUTES),
    refetchInterval: WORKER_METRICS_REFRESH_MS,
  });
  const refresh = (
    <button type="button" className="wc-button wc-button--small" disabled={workers.isFetching} onClick={() => void workers.refetch()}>
      {workers.isFetching ? 'Refreshing...' : 'Refresh'}
    </button>
  );
  let body;
  if (workers.isError) {
    body = (
      <div className="wc-an-state" role="alert" data-testid="workers-failed">
        <p className="wc-an-state__title">Failed to fetch Lambda metrics</p>
        <p className="wc-muted">Check that the analytics service reaches the metrics of the media workers and that the worker pool is configured</p>
        <p className="wc-muted wc-an-hint">{describeError(workers.error)}</p>
        <button type="button" className="wc-button" disabled={workers.isFetching} onClick={() => void workers.refetch()}>
          Retry
        </button>
      </div>
    );
  } else if (workers.isPending) {
    body = (
      <p className="wc-muted" role="status">
        Loading worker metrics...
      </p>
    );
  } else if (!workers.data.enabled) {
    body = (
      <Unavailable
        title="Lambda Function is not configured"
        testId="workers-unconfigured"
        hint={
          <>
            Set <code className="wc-an-code">{WORKER_POOL_SWITCH}</code> to the worker pool&apos;s name to show its figures.
          </>
        }
      />
    );
  } else {
    body = <WorkerDetails workers={workers.data} />;
  }
  return (
    <FigureSection title={`Media workers (last ${WORKER_METRICS_PERIOD_MINUTES} minutes)`} testId="section-workers" actions={refresh}>
      {body}
    </FigureSection>
  );
}

function WorkerDetails({ workers }: { workers: WorkerMetrics }) {
  const { metrics, cost } = workers;
  const rate = errorRateLevel(metrics.errors.errorRate);
  const speed = durationLevel(metrics.duration.average);
  const throttling = throttleLevel(metrics.throttles);
  const recent = workers.recentErrors.slice(0, RECENT_ERRORS_SHOWN);
  return (
    <>
      <dl className="wc-an-dl wc-an-dl--inline">
        <Field label="Worker pool" testId="worker-name">
          {workers.functionName}
        </Field>
        <Field label="Runtime">{workers.runtime}</Field>
        <Field label="Memory">{formatCount(workers.memorySize)} MB</Field>
        <Field label="Timeout">{formatCount(workers.timeout)} s</Field>
      </dl>

      <dl className="wc-an-stats">
        <Stat label="Invocations" value={formatCount(metrics.invocations.total)} note={metrics.invocations.period} testId="worker-invocations" />
        <Stat label="Errors" value={formatCount(metrics.errors.total)} note={<span data-testid="worker-error-rate">{formatPercent(metrics.errors.errorRate)} error rate</span>} testId="worker-errors" />
        <Stat label="Average duration" value={formatMs(metrics.duration.average)} testId="worker-duration-avg" />
        <Stat label="Maximum duration" value={formatMs(metrics.duration.maximum)} testId="worker-duration-max" />
        <Stat label="Concurrent executions" value={formatCount(metrics.concurrentExecutions)} testId="worker-concurrency" />
        <Stat label="Throttles" value={metrics.throttles === 0 ? 'None' : formatCount(metrics.throttles)} testId="worker-throttles" />
      </dl>

      <div className="wc-an-pair">
        <div className="wc-an-block" data-testid="worker-cost">
          <h3 className="wc-an-subhead">Estimated cost</h3>
          <dl className="wc-an-dl">
            <Field label="Request cost">{formatCost(cost.requestCost, cost.currency)}</Field>
            <Field label="Compute cost">{formatCost(cost.computeCost, cost.currency)}</Field>
            <Field label="Total cost" testId="worker-cost-total">
              <strong>{formatCost(cost.totalCost, cost.currency)}</strong> <span className="wc-an-subtle wc-an-inline">for {cost.period}</span>
            </Field>
          </dl>
          <p className="wc-an-hint" data-testid="worker-pricing">
            {pricingNote(cost)}
          </p>
        </div>
        <div className="wc-an-block" data-testid="worker-summary">
          <h3 className="wc-an-subhead">Performance summary</h3>
          <dl className="wc-an-dl">
            <Field label="Error rate" testId="worker-summary-error-rate">
              <Badge level={rate} /> <span className="wc-an-subtle wc-an-inline">{formatPercent(metrics.errors.errorRate)}</span>
            </Field>
            <Field label="Average response time" testId="worker-summary-duration">
              <Badge level={speed} /> <span className="wc-an-subtle wc-an-inline">{formatMs(metrics.duration.average)}</span>
            </Field>
            <Field label="Throttling" testId="worker-summary-throttling">
              <Badge level={throttling} />
            </Field>
          </dl>
        </div>
      </div>

      <h3 className="wc-an-subhead">Recent errors (last 24 hours)</h3>
      {recent.length === 0 ? (
        <p className="wc-muted">No errors in the last 24 hours</p>
      ) : (
        <ul className="wc-an-feed" data-testid="worker-recent-errors">
          {recent.map((e) => (
            <li key={`${e.requestId}-${e.timestamp}`} data-testid="worker-recent-error">
              <div className="wc-an-feed__head">
                <code className="wc-an-code" title={e.requestId}>
                  {shortId(e.requestId, REQUEST_ID_CHARS)}
                </code>
                <span className="wc-an-subtle wc-an-inline">
                  <RelativeTime value={e.timestamp} />
                </span>
              </div>
              <p className="wc-an-message">{e.message}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
