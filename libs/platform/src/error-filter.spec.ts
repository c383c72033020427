import type { ArgumentsHost } from '@nestjs/common';
import { createLogger } from './logger';
import { DATABASE_UNAVAILABLE_MESSAGE, ErrorBodyFilter, isDatabaseUnavailable } from './nest';

/** The filter renders body-parser's client errors with their own status, not as a 500. */
function render(exception: unknown) {
  const sent: { status?: number; body?: Record<string, unknown>; headers?: Record<string, string> } = {};
  const res = {
    headersSent: false,
    setHeader(name: string, value: string) {
      sent.headers = { ...sent.headers, [name]: value };
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: Record<string, unknown>) {
      sent.body = body;
      return this;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost;
  new ErrorBodyFilter(createLogger('test', 'silent')).catch(exception, host);
  return sent;
}

describe('ErrorBodyFilter', () => {
  it('answers 413 for a body over the limit, naming the limit', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), { statusCode: 413, status: 413, expose: true, type: 'entity.too.large', length: 2_000_000, limit: 1_048_576 });
    const sent = render(tooLarge);
    expect(sent.status).toBe(413);
    expect(String(sent.body?.['message'])).toContain('too large');
    expect(String(sent.body?.['message'])).toContain('1048576');
  });

  it('answers 400 for malformed JSON', () => {
    const malformed = Object.assign(new SyntaxError('Unexpected token'), { statusCode: 400, status: 400, expose: true, type: 'entity.parse.failed' });
    const sent = render(malformed);
    expect(sent.status).toBe(400);
    expect(sent.body?.['message']).toBe('The request body is not valid JSON.');
  });

  it('still hides unexpected errors behind a 500', () => {
    const sent = render(new Error('db password is hunter2'));
    expect(sent.status).toBe(500);
    expect(String(sent.body?.['message'])).not.toContain('hunter2');
  });

  it('answers 503 with Retry-After when Postgres is down, and keeps other failures as they were', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:54321'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { name: 'QueryFailedError', code: '57P01', driverError: { code: '57P01' } });
    const lost = new Error('Connection terminated unexpectedly');
    for (const e of [refused, shutdown, lost]) {
      const sent = render(e);
      expect(sent.status).toBe(503);
      expect(sent.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE });
      expect(sent.headers?.['Retry-After']).toBe('5');
    }
    // a query the database refused, an S3 client's refused socket and a plain bug are not "the database is down"
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { name: 'QueryFailedError', code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED', syscall: 'connect', $metadata: {} }))).toBe(false);
    expect(render(new TypeError('x is undefined')).status).toBe(500);
  });
});
