import { Writable } from 'node:stream';
import { ErrorLogRelay, type ReportedLogEntry } from './error-log';
import { createLogger } from './logger';
import { runWithContext } from './context';

const sink = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

describe('ErrorLogRelay', () => {
  it('reports error and fatal entries, and warnings only when asked, with the endpoint and correlation id', async () => {
    const relay = new ErrorLogRelay('gateway');
    const sent: ReportedLogEntry[] = [];
    relay.attach(async (e) => void sent.push(e));
    const logger = createLogger('gateway', 'info', sink(), relay);
    runWithContext({ correlationId: 'c-1', endpoint: 'POST /api/videos/upload' }, () => {
      logger.info('fine');
      logger.warn('just a warning');
      logger.warn({ report: true }, 'an operator should see this');
      logger.error({ err: new Error('disk full') }, 'upload failed');
      logger.fatal('going down');
    });
    await new Promise((r) => setImmediate(r));
    expect(sent.map((e) => [e.severity, e.message])).toEqual([
      ['warn', 'an operator should see this'],
      ['error', 'upload failed: disk full'],
      ['fatal', 'going down'],
    ]);
    expect(sent[1]).toMatchObject({ service: 'gateway', endpoint: 'POST /api/videos/upload', correlationId: 'c-1' });
    expect(sent[1]!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps what was logged before a sender is attached, within a bound, and never throws', async () => {
    const relay = new ErrorLogRelay('media');
    const logger = createLogger('media', 'info', sink(), relay);
    for (let i = 0; i < 250; i++) logger.error(`e${i}`);
    const sent: string[] = [];
    relay.attach(async (e) => void sent.push(e.message));
    await new Promise((r) => setImmediate(r));
    expect(sent).toHaveLength(200);
    expect(sent[0]).toBe('e0');
    expect(relay.dropped).toBe(50);
    relay.attach(() => Promise.reject(new Error('NATS is down')));
    expect(() => logger.error('still logs')).not.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(relay.dropped).toBe(51);
  });

  it('ignores lines that are not JSON', () => {
    expect(new ErrorLogRelay('x').entryOf('not json')).toBeNull();
  });
});
