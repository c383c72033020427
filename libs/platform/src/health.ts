export interface HealthCheck {
  name: string;
  check: () => Promise<void>;
}

export interface HealthReport {
  status: 'ok' | 'error';
  service: string;
  uptimeSeconds: number;
  checks: Record<string, { status: 'ok' | 'error'; durationMs: number; error?: string }>;
}

/** Runs every dependency check in parallel, each bounded by a timeout. */
export async function runHealthChecks(service: string, checks: HealthCheck[], timeoutMs = 2000): Promise<HealthReport> {
  const results = await Promise.all(
    checks.map(async (c) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [c.name, { status: 'ok' as const, durationMs: Math.round(performance.now() - started) }] as const;
      } catch (err) {
        return [
          c.name,
          { status: 'error' as const, durationMs: Math.round(performance.now() - started), error: (err as Error).message },
        ] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const report: HealthReport['checks'] = Object.fromEntries(results);
  return {
    status: results.every(([, r]) => r.status === 'ok') ? 'ok' : 'error',
    service,
    uptimeSeconds: Math.round(process.uptime()),
    checks: report,
  };
}
