import { randomUUID } from 'node:crypto';

/** One entry for the operators' error log (the shape of `errorLogEntrySchema` in contracts). */
export interface ReportedLogEntry {
  id: string;
  service: string;
  severity: 'error' | 'warn' | 'fatal';
  message: string;
  endpoint: string | null;
  correlationId: string | null;
  at: string;
}

export type ErrorLogSender = (entry: ReportedLogEntry) => Promise<unknown>;

const LEVELS: Record<number, ReportedLogEntry['severity']> = { 40: 'warn', 50: 'error', 60: 'fatal' };
/** Entries kept while no sender is attached yet (start-up) or while sends are in flight. */
const MAX_PENDING = 200;
const MAX_MESSAGE = 4000;

/**
 * A log destination that reports error and fatal entries (and warnings logged with `report: true`)
 * to the operators' error log. It never blocks or throws into the logger: entries beyond a bounded
 * backlog are dropped and counted, and a failed send is not logged (that would loop).
 */
export class ErrorLogRelay {
  private sender: ErrorLogSender | null = null;
  private readonly backlog: ReportedLogEntry[] = [];
  private inFlight = 0;
  /** entries dropped because the backlog was full or a send failed */
  dropped = 0;

  constructor(private readonly service: string) {}

  /** pino destination: one JSON line per call. */
  write(line: string): void {
    const entry = this.entryOf(line);
    if (!entry) return;
    if (!this.sender) {
      if (this.backlog.length < MAX_PENDING) this.backlog.push(entry);
      else this.dropped++;
      return;
    }
    this.send(entry);
  }

  /** Starts reporting (and flushes what was logged before). */
  attach(sender: ErrorLogSender): void {
    this.sender = sender;
    for (const entry of this.backlog.splice(0)) this.send(entry);
  }

  /** Stops reporting (on shutdown, before the connection closes). */
  detach(): void {
    this.sender = null;
  }

  entryOf(line: string): ReportedLogEntry | null {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return null;
    }
    const level = typeof record['level'] === 'number' ? LEVELS[record['level']] : (record['level'] as ReportedLogEntry['severity'] | undefined);
    if (level !== 'error' && level !== 'fatal' && !(level === 'warn' && record['report'] === true)) return null;
    return {
      id: randomUUID(),
      service: this.service,
      severity: level,
      message: messageOf(record).slice(0, MAX_MESSAGE),
      endpoint: typeof record['endpoint'] === 'string' ? record['endpoint'].slice(0, 500) : null,
      correlationId: typeof record['correlationId'] === 'string' ? record['correlationId'] : null,
      at: typeof record['time'] === 'string' ? record['time'] : new Date().toISOString(),
    };
  }

  private send(entry: ReportedLogEntry): void {
    if (!this.sender || this.inFlight >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    this.inFlight++;
    this.sender(entry)
      .catch(() => {
        this.dropped++;
      })
      .finally(() => this.inFlight--);
  }
}

/** The line's message, with the logged error's own message when there is one. */
function messageOf(record: Record<string, unknown>): string {
  const msg = typeof record['msg'] === 'string' ? record['msg'] : '';
  const err = (record['err'] ?? record['error']) as unknown;
  const detail = typeof err === 'string' ? err : err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string' ? (err as { message: string }).message : '';
  if (!detail || msg.includes(detail)) return msg || detail || 'error';
  return msg ? `${msg}: ${detail}` : detail;
}
