import { createLogger, type Logger } from '@wordcut/platform';
import { Writable } from 'node:stream';

/** A service logger whose JSON lines land in `lines` (for tests that assert what was logged). */
export function capturedLogger(service = 'gateway'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    service,
    'info',
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { logger, lines };
}
