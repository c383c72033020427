import { useQuery } from '@tanstack/react-query';
import { describeError } from '@wordcut/ui';
import { ANALYTICS_KEYS, fetchMetrics, METRICS_REFRESH_MS } from '../api';
import { SKELETON_ROWS } from '../ListParts';
import { AnalyticsEvents } from './AnalyticsEvents';
import { FeatureStatus } from './FeatureStatus';
import { ProviderPublishing } from './ProviderPublishing';
import { QueueCards } from './QueueCards';
import { QueueConfig } from './QueueConfig';
import { SystemInfo } from './SystemInfo';
import { WorkQueue } from './WorkQueue';
import { Workers } from './Workers';

/**
 * The dashboard's figures, from GET /api/metrics (refetched every 30 s); the media workers have
 * their own call. Until the first answer: 5 skeleton rows; when it
 * fails: 'Error Loading Analytics' with Retry.
 */
export function Figures() {
  const metrics = useQuery({ queryKey: ANALYTICS_KEYS.metrics, queryFn: fetchMetrics, refetchInterval: METRICS_REFRESH_MS });
  const m = metrics.data;
  let before;
  if (m) {
    before = (
      <>
        {metrics.isRefetchError ? (
          <p className="wc-error-text" role="alert">
            Could not refresh the figures ({describeError(metrics.error)}); showing the last ones.
          </p>
        ) : null}
        <FeatureStatus features={m.features} />
        <QueueCards queue={m.queue} />
        <div className="wc-an-pair">
          <SystemInfo system={m.system} />
          <QueueConfig queue={m.queue} />
        </div>
        <WorkQueue sqs={m.sqs} />
      </>
    );
  } else if (metrics.isError) {
    before = (
      <div className="wc-card wc-an-state" role="alert" data-testid="figures-error">
        <h2 className="wc-an-state__title wc-an-section__title">Error Loading Analytics</h2>
        <p className="wc-muted">{describeError(metrics.error)}</p>
        <button type="button" className="wc-button" disabled={metrics.isFetching} onClick={() => void metrics.refetch()}>
          Retry
        </button>
      </div>
    );
  } else {
    before = (
      <div className="wc-card wc-an-section" role="status" data-testid="figures-loading">
        <span className="wc-an-sr">Loading analytics...</span>
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <div key={i} className="wc-an-skeleton" data-testid="skeleton-row" aria-hidden="true">
            <span className="wc-an-skeleton__bar" />
          </div>
        ))}
      </div>
    );
  }
  // the workers keep their place (and their state) while the metrics load, fail or refresh
  return (
    <>
      {before}
      <Workers />
      {m ? (
        <>
          <ProviderPublishing provider={m.providerIntegration} />
          <AnalyticsEvents analytics={m.analytics} />
        </>
      ) : null}
    </>
  );
}
