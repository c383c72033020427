import type { Metrics } from '@wordcut/contracts';
import { formatCount } from '../format';
import { Field, FigureSection, Stat, Unavailable } from './parts';

/** The environment switch of analytics tracking. */
export const ANALYTICS_SWITCH = 'ENABLE_ANALYTICS';

/** Today's and the last 7 days' event counts, and each metric's value; when tracking is off, how to turn it on. */
export function AnalyticsEvents({ analytics }: { analytics: Metrics['analytics'] }) {
  let body;
  if (!analytics.enabled) {
    body = (
      <Unavailable
        title="Analytics tracking is disabled"
        testId="events-disabled"
        hint={
          <>
            Set <code className="wc-an-code">{ANALYTICS_SWITCH}=true</code> to record analytics events.
          </>
        }
      />
    );
  } else if (analytics.error !== null) {
    body = (
      <p className="wc-error-text" data-testid="events-error">
        {analytics.error}
      </p>
    );
  } else {
    body = (
      <>
        <dl className="wc-an-stats">
          <Stat label="Today" value={formatCount(analytics.summary.todayCount)} note="events" testId="events-today" />
          <Stat label="Last 7 days" value={formatCount(analytics.summary.weekCount)} note="events" testId="events-week" />
        </dl>
        <h3 className="wc-an-subhead">Metrics (last 7 days)</h3>
        {analytics.last7Days.length === 0 ? (
          <p className="wc-muted">No events in the last 7 days</p>
        ) : (
          <dl className="wc-an-dl" data-testid="events-metrics">
            {analytics.last7Days.map((m) => (
              <Field key={m.metricName} label={m.metricName}>
                {formatCount(m.value)}
              </Field>
            ))}
          </dl>
        )}
      </>
    );
  }
  return (
    <FigureSection title="Analytics Events" testId="section-events">
      {body}
    </FigureSection>
  );
}
