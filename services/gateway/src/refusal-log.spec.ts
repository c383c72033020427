/**
 * Refusals of oversized input reach the operators' error log: a body whose list is over its
 * limit (or a reorder with too many blocks) is logged as a reported warning naming who sent it;
 * other refusals are not.
 */
import type { ExecutionContext } from '@nestjs/common';
import { applyCutsRequestSchema, MAX_EDIT_RANGES } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { lastValueFrom, throwError } from 'rxjs';
import { parseBody, TOO_MANY_ENTRIES } from './http';
import { RefusalLog } from './refusal-log';
import { capturedLogger } from '../../../tools/testing/captured-logger';

const { logger, lines: logs } = capturedLogger();
const interceptor = new RefusalLog(logger);
const ctx = { switchToHttp: () => ({ getRequest: () => ({ method: 'POST', path: '/api/videos/v1/apply-cuts', identity: { userId: 'wordcut:u1' } }) }) } as unknown as ExecutionContext;

/** The error the route's handler threw, after the interceptor saw it. */
async function through(err: unknown): Promise<unknown> {
  return lastValueFrom(interceptor.intercept(ctx, { handle: () => throwError(() => err) })).catch((e: unknown) => e);
}

function refusalOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

beforeEach(() => {
  logs.length = 0;
});

describe('RefusalLog', () => {
  it('reports a list over its limit, and passes the refusal on unchanged', async () => {
    const cuts = Array.from({ length: MAX_EDIT_RANGES + 1 }, (_, i) => ({ start: i, end: i + 0.5 }));
    const refusal = refusalOf(() => parseBody(applyCutsRequestSchema, { cuts }));
    expect(refusal).toMatchObject({ statusCode: 400, message: 'cuts: At most 5,000 cuts can be sent at once.', details: { reason: TOO_MANY_ENTRIES } });
    expect(await through(refusal)).toBe(refusal);
    await new Promise((ok) => setImmediate(ok));
    expect(logs).toEqual([
      expect.objectContaining({ level: 'warn', report: true, msg: 'request refused: a list over its limit', reason: TOO_MANY_ENTRIES, userId: 'wordcut:u1', path: '/api/videos/v1/apply-cuts' }),
    ]);
  });

  it('reports a reorder with too many blocks; other refusals stay out of the error log', async () => {
    await through(new AppError(422, 'VALIDATION_FAILED', 'too many blocks', { reason: 'TOO_MANY_BLOCKS' }));
    await through(refusalOf(() => parseBody(applyCutsRequestSchema, { cuts: [] })));
    await through(new AppError(404, 'NOT_FOUND', 'no such video'));
    await new Promise((ok) => setImmediate(ok));
    expect(logs.map((l) => l['reason'])).toEqual(['TOO_MANY_BLOCKS']);
  });
});
