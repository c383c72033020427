/** Real external systems for integration tests: a throw-away Postgres database, a NATS namespace. */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Client } from 'pg';

export const PG_ADMIN_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

export function uniqueSuffix(): string {
  return randomUUID().replace(/-/g, '').slice(0, 10);
}

/** A fresh database on the local server; `drop()` removes it (and its connections). */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `wordcut_t_${uniqueSuffix()}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
      await c.query(`DROP DATABASE IF EXISTS "${name}"`);
      await c.end();
    },
  };
}

export async function eventually<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 30000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > until) throw new Error(`${what} not met within ${timeoutMs} ms${lastErr ? `: ${(lastErr as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Deletes every JetStream stream of a test namespace (the streams of libs/contracts `Streams`). */
export async function deleteNamespaceStreams(namespace: string): Promise<void> {
  const { ExportStream, Streams } = await import('@wordcut/contracts');
  const { Messaging } = await import('@wordcut/messaging');
  const { createLogger } = await import('@wordcut/platform');
  const bus = await Messaging.connect({ servers: NATS_URL, namespace, name: 'cleanup', logger: createLogger('cleanup', 'silent') });
  try {
    for (const s of [...Object.values(Streams), ExportStream]) await bus.jsm.streams.delete(bus.streamName(s.name)).catch(() => undefined);
  } finally {
    await bus.close();
  }
}

/** Stops a stack of service processes, first reporting any that exited early (with its last output). */
export async function stopStackReporting(stack: { services: Record<string, { name: string; child?: { exitCode: number | null }; stderr: string[]; lines: unknown[] }>; stop(): Promise<void> } | undefined): Promise<void> {
  for (const svc of Object.values(stack?.services ?? {})) {
    if (svc.child?.exitCode !== null && svc.child?.exitCode !== undefined) {
      process.stderr.write(`${svc.name} exited early (${svc.child.exitCode}):\n${svc.stderr.join('\n')}\n${JSON.stringify(svc.lines.slice(-5))}\n`);
    }
  }
  await stack?.stop();
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}
