import type { Metrics } from '@wordcut/contracts';
import { formatCount } from '../format';
import { DEAD_LETTER_NOTE, deadLetterAdvice, deadLetterLevel, workQueueHealthLevel } from './levels';
import { Badge, FigureSection, Stat, Unavailable } from './parts';

/** The environment switch that turns the media work queue's figures on. */
export const WORK_QUEUE_SWITCH = 'MEDIA_QUEUE_METRICS';

/**
 * The media work queue (JetStream). Its health, the main queue's waiting, in-flight
 * and delayed messages, and the dead letters (coloured by the thresholds, with what to do).
 */
export function WorkQueue({ sqs }: { sqs: Metrics['sqs'] }) {
  const dead = sqs.deadLetterQueue.approximateNumberOfMessages;
  const level = deadLetterLevel(dead);
  return (
    <FigureSection
      title="Media work queue (JetStream)"
      testId="section-work-queue"
      actions={sqs.enabled ? <Badge level={workQueueHealthLevel(sqs.health.status)} testId="work-queue-health" /> : null}
    >
      {sqs.enabled ? (
        <div className="wc-an-pair">
          <div className="wc-an-block">
            <h3 className="wc-an-subhead">
              Main queue <code className="wc-an-code">{sqs.name}</code>
            </h3>
            <dl className="wc-an-stats">
              <Stat label="Waiting" value={formatCount(sqs.mainQueue.approximateNumberOfMessages)} note="ready to process" testId="work-queue-waiting" />
              <Stat label="In flight" value={formatCount(sqs.mainQueue.approximateNumberOfMessagesNotVisible)} note="currently processing" testId="work-queue-in-flight" />
              <Stat label="Delayed" value={formatCount(sqs.mainQueue.approximateNumberOfMessagesDelayed)} note="scheduled" testId="work-queue-delayed" />
            </dl>
          </div>
          <div className="wc-an-block">
            <h3 className="wc-an-subhead">
              Dead-letter queue <code className="wc-an-code">{sqs.deadLetterName}</code>
            </h3>
            <dl className="wc-an-stats">
              <Stat
                label="Failed messages"
                value={
                  <>
                    <span className={`wc-an-figure--${level.tone}`} data-testid="dlq-count" data-tone={level.tone}>
                      {formatCount(dead)}
                    </span>{' '}
                    <Badge level={level} testId="dlq-level" />
                  </>
                }
                note={DEAD_LETTER_NOTE}
              />
            </dl>
            <p className={dead === 0 ? 'wc-an-hint' : 'wc-an-hint wc-an-hint--strong'} data-testid="dlq-advice">
              {deadLetterAdvice(dead)}
            </p>
          </div>
        </div>
      ) : (
        <Unavailable
          title="SQS Queue is disabled"
          testId="work-queue-disabled"
          hint={
            <>
              Set <code className="wc-an-code">{WORK_QUEUE_SWITCH}=true</code> to show the media work queue.
            </>
          }
        />
      )}
    </FigureSection>
  );
}
