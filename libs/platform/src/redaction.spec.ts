import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { loggableUrl } from './nest';

describe('credentials never reach a log line', () => {
  it.each([
    ['/editor?token=eyJhbGci.abc.def&v=2', '/editor?token=redacted&v=2'],
    ['/api/videos/1/stream/processed?st=eyJ.x.y&t=2025', '/api/videos/1/stream/processed?st=redacted&t=2025'],
    ['/x?X-Amz-Signature=abc&X-Amz-Credential=k', '/x?X-Amz-Signature=redacted&X-Amz-Credential=redacted'],
    ['/api/videos/1', '/api/videos/1'],
  ])('redacts token-bearing query parameters of a request URL and keeps the rest: %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });

  it('redacts authorization headers and token fields in whatever object is logged', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('test', 'info', sink);
    logger.info({ req: { headers: { authorization: 'Bearer secret.jwt.value' } }, token: 'secret.jwt.value', body: { token: 'secret.jwt.value' } }, 'call');
    expect(lines.join('')).not.toContain('secret.jwt.value');
    expect(lines.join('')).toContain('redacted');
  });
});
