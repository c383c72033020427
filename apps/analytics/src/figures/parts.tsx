import { useId, type ReactNode } from 'react';
import { formatDate, formatRelativeTime } from '../format';
import type { Level } from './levels';

/** A status in words on its tone's colours (never colour alone). */
export function Badge({ level, testId }: { level: Level; testId?: string }) {
  return (
    <span className={`wc-an-badge wc-an-badge--${level.tone}`} data-testid={testId} data-tone={level.tone}>
      {level.label}
    </span>
  );
}

interface SectionProps {
  title: string;
  testId: string;
  /** Buttons at the right of the heading (Refresh) */
  actions?: ReactNode;
  children: ReactNode;
}

/** A dashboard section: a card with its h2, found by its test id. */
export function FigureSection({ title, testId, actions, children }: SectionProps) {
  const id = useId();
  return (
    <section className="wc-card wc-an-section" aria-labelledby={`${id}-title`} data-testid={testId}>
      <div className="wc-an-section__head">
        <h2 id={`${id}-title`} className="wc-an-section__title">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

interface StatProps {
  label: string;
  value: ReactNode;
  /** a line under the value ("ready to process") */
  note?: ReactNode;
  testId?: string;
  /** the value's colour class (wc-an-figure--ok/warn/bad) */
  valueClass?: string;
}

/** One figure of a <dl className="wc-an-stats">: label, value, note. */
export function Stat({ label, value, note, testId, valueClass }: StatProps) {
  return (
    <div className="wc-an-stat">
      <dt className="wc-an-stat__label">{label}</dt>
      <dd className={`wc-an-stat__value${valueClass ? ` ${valueClass}` : ''}`} data-testid={testId}>
        {value}
      </dd>
      {note !== undefined ? <dd className="wc-an-stat__note">{note}</dd> : null}
    </div>
  );
}

/** A label and its value in a <dl className="wc-an-dl">. */
export function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="wc-an-dl__row">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** A feature that is off or unconfigured: what is wrong, and the environment switch that fixes it. */
export function Unavailable({ title, hint, testId }: { title: string; hint: ReactNode; testId?: string }) {
  return (
    <div className="wc-an-state" data-testid={testId}>
      <p className="wc-an-state__title">{title}</p>
      <p className="wc-muted wc-an-hint">{hint}</p>
    </div>
  );
}

/** An ISO time as "3 minutes ago" (the date and time on hover); an unparseable value as it came. */
export function RelativeTime({ value }: { value: string }) {
  return (
    <time dateTime={value} title={formatDate(value)}>
      {formatRelativeTime(value)}
    </time>
  );
}
