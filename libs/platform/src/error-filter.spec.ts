import type { ArgumentsHost } from '@nestjs/common';
import { createLogger } from './logger';
import { ErrorBodyFilter } from './nest';

/** The filter renders body-parser's client errors with their own status, not as a 500. */
function render(exception: unknown) {
  const sent: { status?: number; body?: Record<string, unknown> } = {};
  const res = {
    headersSent: false,
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
});
