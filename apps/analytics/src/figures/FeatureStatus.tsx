import type { Metrics } from '@wordcut/contracts';
import { enabledLevel } from './levels';
import { Badge, FigureSection } from './parts';

/** The job queue's backing store and analytics tracking, each Enabled or Disabled. */
export function FeatureStatus({ features }: { features: Metrics['features'] }) {
  return (
    <FigureSection title="Feature Status" testId="section-feature-status">
      <ul className="wc-an-features">
        <li>
          <span>Job queue</span> <Badge level={enabledLevel(features.REDIS_QUEUE)} testId="feature-job-queue" />
        </li>
        <li>
          <span>Analytics</span> <Badge level={enabledLevel(features.ENABLE_ANALYTICS)} testId="feature-analytics" />
        </li>
      </ul>
    </FigureSection>
  );
}
