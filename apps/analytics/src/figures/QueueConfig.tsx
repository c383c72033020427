import type { Metrics } from '@wordcut/contracts';
import { formatCount } from '../format';
import { Field, FigureSection } from './parts';

/** Config mode, runtime mode, whether the queue's backing store is active; then the durable consumers. */
export function QueueConfig({ queue }: { queue: Metrics['queue'] }) {
  return (
    <FigureSection title="Queue Configuration" testId="section-queue-config">
      <dl className="wc-an-dl">
        <Field label="Config mode">{queue.configMode}</Field>
        <Field label="Runtime mode">{queue.runtimeMode}</Field>
        <Field label="Queue backing store active" testId="queue-store-active">
          {queue.redisActive ? 'Yes' : 'No'}
        </Field>
      </dl>
      {queue.consumers.length > 0 ? (
        <>
          <h3 className="wc-an-subhead">Consumers</h3>
          <ul className="wc-an-feed wc-an-feed--compact">
            {queue.consumers.map((c) => (
              <li key={c.name}>
                <code className="wc-an-code">{c.name}</code>
                <span className="wc-an-subtle">
                  {formatCount(c.active)} active, {formatCount(c.waiting)} waiting, {formatCount(c.failed)} failed
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </FigureSection>
  );
}
