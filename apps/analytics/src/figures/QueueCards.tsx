import { useId, type ReactNode } from 'react';
import type { Metrics } from '@wordcut/contracts';
import { formatCount } from '../format';
import { queueHealthLevel } from './levels';
import { Badge } from './parts';

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="wc-card wc-an-stat-card">
      <h3 className="wc-an-stat-card__title">{title}</h3>
      {children}
    </div>
  );
}

/** Queue Status (health, default 'unknown', with the runtime mode), Active, Waiting and Failed jobs (default 0). */
export function QueueCards({ queue }: { queue: Partial<Metrics['queue']> | undefined }) {
  const id = useId();
  const stats = queue?.stats;
  return (
    <section className="wc-an-cards" aria-labelledby={`${id}-title`} data-testid="section-queue-cards">
      <h2 id={`${id}-title`} className="wc-an-sr">
        Job queue
      </h2>
      <Card title="Queue Status">
        <p className="wc-an-stat-card__value">
          <Badge level={queueHealthLevel(queue?.health?.status)} testId="queue-health" />
        </p>
        <p className="wc-an-stat-card__note">Runtime mode: {queue?.runtimeMode || 'unknown'}</p>
        {queue?.health?.message ? <p className="wc-an-stat-card__note">{queue.health.message}</p> : null}
      </Card>
      <Card title="Active Jobs">
        <p className="wc-an-stat-card__value" data-testid="queue-active">
          {formatCount(stats?.active ?? 0)}
        </p>
      </Card>
      <Card title="Waiting Jobs">
        <p className="wc-an-stat-card__value" data-testid="queue-waiting">
          {formatCount(stats?.waiting ?? 0)}
        </p>
      </Card>
      <Card title="Failed Jobs">
        <p className="wc-an-stat-card__value" data-testid="queue-failed">
          {formatCount(stats?.failed ?? 0)}
        </p>
      </Card>
    </section>
  );
}
