import type { ProviderIntegrationHealth } from '@wordcut/contracts';
import { formatCount, JOB_ID_CHARS, shortId } from '../format';
import { formatRate, formatSeconds } from './levels';
import { FigureSection, RelativeTime, Stat } from './parts';

/**
 * Publishing to the provider over the last 24 hours: the export counts and success
 * rate, the webhooks' success rate with pending retries, the average processing time and the
 * recent failures. When the figures could not be read, their error instead.
 */
export function ProviderPublishing({ provider }: { provider: ProviderIntegrationHealth }) {
  return (
    <FigureSection title="Provider publishing (last 24 hours)" testId="section-provider">
      {provider.error !== null ? (
        <p className="wc-error-text" data-testid="provider-error">
          {provider.error}
        </p>
      ) : (
        <ProviderFigures provider={provider} />
      )}
    </FigureSection>
  );
}

function ProviderFigures({ provider }: { provider: ProviderIntegrationHealth }) {
  const { last24h, webhooks, performance, recentFailures } = provider;
  return (
    <>
      <dl className="wc-an-stats">
        <Stat label="Total" value={formatCount(last24h.total)} testId="provider-total" />
        <Stat label="Completed" value={formatCount(last24h.completed)} testId="provider-completed" />
        <Stat label="Processing" value={formatCount(last24h.processing)} testId="provider-processing" />
        <Stat label="Failed" value={formatCount(last24h.failed)} testId="provider-failed" />
        <Stat label="Success rate" value={formatRate(last24h.successRate)} testId="provider-success-rate" />
        <Stat
          label="Webhook success rate"
          value={formatRate(webhooks.successRate)}
          testId="provider-webhook-rate"
          note={
            webhooks.pendingRetries > 0 ? (
              <span className="wc-an-badge wc-an-badge--warn" data-testid="provider-pending">
                {formatCount(webhooks.pendingRetries)} pending
              </span>
            ) : undefined
          }
        />
        <Stat label="Average processing time" value={formatSeconds(performance.avgProcessingTimeSeconds)} testId="provider-avg-time" />
      </dl>
      <h3 className="wc-an-subhead">Recent failures</h3>
      {recentFailures.length === 0 ? (
        <p className="wc-muted">No failures in the last 24 hours</p>
      ) : (
        <ul className="wc-an-feed" data-testid="provider-failures">
          {recentFailures.map((f) => (
            <li key={`${f.jobId}-${f.failedAt}`} data-testid="provider-failure">
              <div className="wc-an-feed__head">
                <span className="wc-an-badge wc-an-badge--bad">{f.errorCode}</span>
                <code className="wc-an-code" title={f.jobId}>
                  {shortId(f.jobId, JOB_ID_CHARS)}
                </code>
                <span className="wc-an-subtle wc-an-inline">
                  <RelativeTime value={f.failedAt} />
                </span>
              </div>
              <p className="wc-an-message">{f.errorMessage}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
