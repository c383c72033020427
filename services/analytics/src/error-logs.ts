import { errorLogEntrySchema, type ErrorLogEntry, type ErrorLogPage, type ErrorLogQuery, Consumers } from '@wordcut/contracts';
import { LOGS_STREAM, type ConsumerDef, type Messaging } from '@wordcut/messaging';
import type { DataSource } from 'typeorm';

export const errorLogConsumer: ConsumerDef = Consumers.analyticsErrorLogs;

const T = `"analytics"."error_logs"`;

interface ErrorLogDbRow {
  id: string;
  service: string;
  severity: ErrorLogEntry['severity'];
  message: string;
  endpoint: string | null;
  correlation_id: string | null;
  created_at: Date;
}

/** The one store of `analytics.error_logs`: entries by id (a repeated delivery is kept once), newest first. */
export class ErrorLogStore {
  constructor(private readonly ds: DataSource) {}

  async add(e: ErrorLogEntry): Promise<void> {
    await this.ds.query(
      `INSERT INTO ${T} (id, service, severity, message, endpoint, correlation_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO NOTHING`,
      [e.id, e.service, e.severity, e.message, e.endpoint, e.correlationId, e.at],
    );
  }

  async list(q: ErrorLogQuery): Promise<ErrorLogPage> {
    const where = q.severity === 'all' ? '' : 'WHERE severity = $3';
    const params: unknown[] = [q.limit, (q.page - 1) * q.limit, ...(q.severity === 'all' ? [] : [q.severity])];
    const rows = (await this.ds.query(
      `SELECT *, count(*) OVER () AS total FROM ${T} ${where} ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
      params,
    )) as Array<ErrorLogDbRow & { total: string }>;
    const total = rows.length > 0 ? Number(rows[0]!.total) : await this.count(q.severity);
    return {
      errors: rows.map((r) => ({
        id: r.id,
        createdAt: r.created_at.toISOString(),
        severity: r.severity,
        service: r.service,
        endpoint: r.endpoint,
        message: r.message,
        correlationId: r.correlation_id,
      })),
      pagination: { page: q.page, limit: q.limit, total, totalPages: Math.max(1, Math.ceil(total / q.limit)) },
    };
  }

  async delete(ids: string[]): Promise<number> {
    const [, n] = (await this.ds.query(`DELETE FROM ${T} WHERE id = ANY($1::uuid[])`, [ids])) as [unknown, number];
    return n;
  }

  /** Rotation: drops entries older than the age limit, then all but the newest `maxRows`. */
  async rotate(maxAgeDays: number, maxRows: number): Promise<number> {
    const [, old] = (await this.ds.query(`DELETE FROM ${T} WHERE created_at < now() - make_interval(days => $1)`, [maxAgeDays])) as [unknown, number];
    const [, extra] = (await this.ds.query(
      `DELETE FROM ${T} WHERE id IN (SELECT id FROM ${T} ORDER BY created_at DESC, id OFFSET $1)`,
      [maxRows],
    )) as [unknown, number];
    return old + extra;
  }

  private async count(severity: ErrorLogQuery['severity']): Promise<number> {
    const rows = (await this.ds.query(
      severity === 'all' ? `SELECT count(*)::int AS n FROM ${T}` : `SELECT count(*)::int AS n FROM ${T} WHERE severity = $1`,
      severity === 'all' ? [] : [severity],
    )) as Array<{ n: number }>;
    return rows[0]?.n ?? 0;
  }
}

/** Keeps every service's reported log entries, rotated by age and count. */
export class ErrorLogKeeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bus: Messaging,
    readonly store: ErrorLogStore,
    private readonly limits: { maxAgeDays: number; maxRows: number; everyMs?: number },
  ) {}

  async start(): Promise<void> {
    await this.bus.provision([LOGS_STREAM], [errorLogConsumer]);
    await this.bus.consume({ consumer: errorLogConsumer, schema: errorLogEntrySchema, concurrency: 4, handler: (m) => this.store.add(m.data) });
    await this.rotate();
    this.timer = setInterval(() => void this.rotate(), this.limits.everyMs ?? 10 * 60_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  rotate(): Promise<number> {
    return this.store.rotate(this.limits.maxAgeDays, this.limits.maxRows).catch(() => 0);
  }
}
