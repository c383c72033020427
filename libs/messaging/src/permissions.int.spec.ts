/**
 * The per-service NATS users (permissions.ts) on a real nats-server of their own with JetStream:
 * each service provisions its streams and consumers, publishes, requests, serves and pulls what its
 * code does; what belongs to another service is refused.
 */
import { ExportStream, Retry, Streams } from '@wordcut/contracts';
import { createLogger } from '@wordcut/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { PermanentError } from './errors';
import { Messaging, type ConsumerDef } from './messaging';
import { consumerFigures, storedCount } from './operator';
import { NATS_SERVICES, NATS_USE, natsAuthorizationConf, type NatsService } from './permissions';

const NATS_SERVER = process.env['NATS_SERVER_BIN'] ?? '/usr/sbin/nats-server';
const logger = createLogger('test', 'silent');
const anything = z.object({}).passthrough();
const STREAMS = [...Object.values(Streams), ExportStream];
const password = (svc: NatsService) => `pw-${svc}-${randomUUID()}`;

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const s = new Socket();
      s.once('connect', () => (s.destroy(), r(true)));
      s.once('error', () => r(false));
      s.connect(port, '127.0.0.1');
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nats-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const consumerDef = (svc: NatsService, durable: string): ConsumerDef => {
  const c = NATS_USE[svc].consumers.find((x) => x.durable === durable)!;
  return { stream: c.stream, durable, filterSubject: c.filter, ackWaitMs: 2000, maxDeliver: 2, backoff: Retry.redelivery };
};

describe('one NATS user per service, with its permissions', () => {
  const ns = `t${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const passwords = Object.fromEntries(NATS_SERVICES.map((s) => [s, password(s)])) as Record<NatsService, string>;
  const buses: Partial<Record<NatsService, Messaging>> = {};
  let dir: string;
  let server: ChildProcess;
  let url: string;

  const connect = (svc: NatsService, pass = passwords[svc]) => Messaging.connect({ servers: url, namespace: ns, name: svc, user: `wordcut-${svc}`, pass, logger });
  const bus = (svc: NatsService) => buses[svc]!;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wordcut-nats-perms-'));
    const port = await freePort();
    writeFileSync(join(dir, 'nats.conf'), `port: ${port}\nhost: 127.0.0.1\njetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }\n${natsAuthorizationConf(ns)}`);
    const env = { ...process.env, ...Object.fromEntries(NATS_SERVICES.map((s) => [`NATS_PASSWORD_${s.toUpperCase()}`, passwords[s]])) };
    server = spawn(NATS_SERVER, ['-c', join(dir, 'nats.conf')], { env, stdio: 'ignore' });
    await listening(port);
    url = `nats://127.0.0.1:${port}`;
    // each service provisions what it provisions at start (streams first, by the services that own them)
    for (const svc of NATS_SERVICES) {
      buses[svc] = await connect(svc);
      const use = NATS_USE[svc];
      await bus(svc).provision(
        use.streams.map((name) => STREAMS.find((x) => x.name === name)!),
        use.consumers.map((c) => consumerDef(svc, c.durable)),
      );
    }
  }, 30_000);

  afterAll(async () => {
    for (const b of Object.values(buses)) await b?.close();
    server?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a wrong password', async () => {
    await expect(connect('jobs', 'not-the-password')).rejects.toThrow(/authorization/i);
  });

  it('carries a job from the gateway through jobs to a media worker, and its dead letter', async () => {
    const requested: unknown[] = [];
    await bus('jobs').consume({ consumer: consumerDef('jobs', 'jobs-requests'), schema: anything, handler: async (m) => void requested.push(m.data) });
    await bus('gateway').publish('jobs.requested.j1', { jobId: 'j1' });
    const rendered: string[] = [];
    await bus('media').consume({
      consumer: consumerDef('media', 'media-render'),
      schema: anything,
      handler: async (m) => {
        m.working();
        rendered.push(String(m.data['jobId']));
        throw new PermanentError('cannot render', 'TEST');
      },
    });
    await bus('jobs').publish('media.render', { jobId: 'j1' });
    await bus('jobs').publish('jobs.cancel.j1', { jobId: 'j1' });
    for (let i = 0; i < 100 && (requested.length === 0 || rendered.length === 0); i++) await new Promise((r) => setTimeout(r, 100));
    expect(requested).toEqual([{ jobId: 'j1' }]);
    expect(rendered).toEqual(['j1']);
    for (let i = 0; i < 50 && (await storedCount(bus('gateway'), 'DLQ', 'dlq.media.render')) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await storedCount(bus('gateway'), 'DLQ', 'dlq.media.render')).toBe(1);
    // the worker reads the JOBS stream (a cancel) and the gateway the media consumers' figures
    expect(await bus('media').lastOnSubject('JOBS', 'jobs.cancel.j1')).toEqual({ jobId: 'j1' });
    expect(await consumerFigures(bus('gateway'), 'MEDIA', 'media-render')).toMatchObject({ name: 'media-render' });
    await bus('media').publish('jobs.events.completed', { jobId: 'j1' });
    await bus('media').publish('videos.render.completed', { jobId: 'j1' });
    await bus('analytics').publish('logs.errors.analytics', { id: 'e1' });
  });

  it('answers requests between services, and each serves only its own', async () => {
    bus('jobs').serve('rpc.jobs.get', anything, async () => ({ id: 'j1' }));
    bus('export').serve('rpc.export.status', anything, async () => ({ status: 'completed' }));
    bus('gateway').serve('rpc.library.export-sources', anything, async () => ({ state: 'ready' }));
    await new Promise((r) => setTimeout(r, 200));
    expect(await bus('gateway').request('rpc.jobs.get', {}, anything)).toEqual({ id: 'j1' });
    expect(await bus('export').request('rpc.jobs.get', {}, anything)).toEqual({ id: 'j1' });
    expect(await bus('gateway').request('rpc.export.status', {}, anything)).toEqual({ status: 'completed' });
    expect(await bus('export').request('rpc.library.export-sources', {}, anything)).toEqual({ state: 'ready' });
    // analytics may not ask the jobs service, nor media the export service
    await expect(bus('analytics').request('rpc.jobs.get', {}, anything, 1000)).rejects.toThrow(/permission|timeout/i);
    await expect(bus('media').request('rpc.export.status', {}, anything, 1000)).rejects.toThrow(/permission|timeout/i);
  });

  it("refuses another service's subjects, streams and consumers", async () => {
    // analytics cannot command the media workers; media cannot ask for jobs or publish exports
    await expect(bus('analytics').publish('media.render', { jobId: 'x' })).rejects.toThrow(/permission/i);
    await expect(bus('media').publish('jobs.requested.x', { jobId: 'x' })).rejects.toThrow(/permission|timeout/i);
    await expect(bus('gateway').publish('export.run.x', { jobId: 'x' })).rejects.toThrow(/permission|timeout/i);
    // nobody pulls another service's durable consumer or deletes another's stream
    await expect(bus('analytics').jsm.consumers.info(bus('analytics').streamName('JOBS'), 'jobs-requests')).rejects.toThrow(/permission|timeout/i);
    await expect(bus('media').jsm.streams.delete(bus('media').streamName('EXPORT'))).rejects.toThrow(/permission|timeout/i);
    // and the connection survives its refusals
    await bus('analytics').publish('logs.errors.analytics', { id: 'e2' });
  });
});
