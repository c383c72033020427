/**
 * Postgres going away under editing: the whole stack on a Postgres server of this test's own
 * (initdb into a scratch directory, run as the `postgres` user, a free port), a video being edited
 * word by word, then the server stopped for 10 s and started again. While it is down every save
 * answers 503 with a clear, retryable message (Retry-After) and nothing is half-written; afterwards
 * the same save succeeds at the next version and every service is healthy again without a restart.
 * Requires the services to be built (`npm run build:services`) and PostgreSQL's server binaries
 * (Debian's postgresql package, which runs the machine's own Postgres).
 */
import { transcriptSchema, videoSchema, type Transcript } from '@wordcut/contracts';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../stack/stack';
import { eventually, freePort } from '../testing/env';
import { bearer, startGatewaySession, type GatewaySessionForTest } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 14300, media: 14301, jobs: 14302, export: 14303, analytics: 14304 };
const MEDIA = join(ROOT, '.data', 'test-media');
const OUTAGE_MS = 10_000;
const DATABASE_DOWN = 'The database is not answering right now, so nothing was saved. Please try again in a moment.';

/** The server binaries of the newest PostgreSQL Debian installed. */
function pgBin(name: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const path = join('/usr/lib/postgresql', versions[0]!, 'bin', name);
  if (!existsSync(path)) throw new Error(`${path} is missing: install Debian's postgresql package`);
  return path;
}

/** A throw-away PostgreSQL server (the server refuses to run as root: it runs as `postgres`). */
class OwnPostgres {
  readonly data: string;

  constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    this.data = join(dir, 'data');
  }

  private asPostgres(args: string[]): void {
    execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'ignore' });
  }

  init(): void {
    chmodSync(this.dir, 0o755);
    chownSync(this.dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
    this.asPostgres([pgBin('initdb'), '-D', this.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }

  start(): void {
    this.asPostgres([pgBin('pg_ctl'), '-D', this.data, '-l', join(this.dir, 'server.log'), '-w', '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  }

  stop(): void {
    if (existsSync(join(this.data, 'postmaster.pid'))) this.asPostgres([pgBin('pg_ctl'), '-D', this.data, '-m', 'fast', '-w', 'stop']);
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
}

describe('Postgres stopped while people edit', () => {
  let sys: TestSystem;
  let pg: OwnPostgres;
  let owner: GatewaySessionForTest;
  const api = (path: string) => sys.api(path);

  beforeAll(async () => {
    execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), MEDIA], { stdio: 'ignore' });
    pg = new OwnPostgres(mkdtempSync(join(tmpdir(), 'wordcut-pg-')), await freePort());
    pg.init();
    pg.start();
    sys = await startSystem({ name: 'pgout', ports: PORTS, env: { DATABASE_URL: pg.url } });
    owner = await startGatewaySession(sys.stack.services.gateway.url);
  }, 300_000);

  afterAll(async () => {
    await sys?.close();
    pg?.stop();
    if (pg) rmSync(pg.dir, { recursive: true, force: true });
  });

  it('refuses saves with a retryable 503 while it is down, writes nothing half, and saves again once it is back', async () => {
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'demo.mp4')))], { type: 'video/mp4' }), 'editing.mp4');
    form.append('vtt', new Blob([readFileSync(join(MEDIA, 'demo.vtt'), 'utf8')], { type: 'text/vtt' }), 'demo.vtt');
    const up = await fetch(api('/api/videos/upload'), { method: 'POST', headers: bearer(owner.token), body: form });
    expect(up.status).toBe(201);
    const { id } = (await up.json()) as { id: string };
    await eventually(async () => {
      const v = videoSchema.parse(await (await fetch(api(`/api/videos/${id}`), { headers: bearer(owner.token) })).json());
      return v.status === 'completed' ? v : undefined;
    }, 120_000, 'the upload is ready');
    const transcript = async (): Promise<Transcript> => transcriptSchema.parse(await (await fetch(api(`/api/videos/${id}/transcript`), { headers: bearer(owner.token) })).json());
    const save = (t: Transcript, word: number, text: string) =>
      fetch(api(`/api/transcripts/${t.id}`), {
        method: 'PATCH',
        headers: { ...bearer(owner.token), 'content-type': 'application/json' },
        body: JSON.stringify({ version: t.version, wordDeltas: [{ word_order: word, changes: { text } }, { word_order: word + 1, changes: { text: `${text}-2` } }] }),
      });

    // editing load before the outage: ten saves in a row
    let t = await transcript();
    for (let k = 0; k < 10; k++) {
      const res = await save(t, k, `edit${k}`);
      expect(res.status).toBe(200);
      t = transcriptSchema.parse(await res.json());
    }
    const before = t;

    pg.stop();
    const during: Response[] = [];
    const stoppedAt = Date.now();
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      during.push(await save(before, 20, 'lost'));
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(during.length).toBeGreaterThan(5);
    for (const res of during) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(((await res.json()) as { message: string }).message).toBe(DATABASE_DOWN);
    }
    expect((await fetch(`${sys.stack.services.gateway.url}/healthz`)).status).toBe(503);
    pg.start();

    // nothing of the refused saves was written; the same save now lands at the next version
    await eventually(async () => ((await fetch(`${sys.stack.services.gateway.url}/healthz`)).status === 200 ? true : undefined), 30_000, 'the gateway healthy again');
    const after = await transcript();
    expect(after.version).toBe(before.version);
    expect(after.words).toEqual(before.words);
    const again = await save(after, 20, 'kept');
    expect(again.status).toBe(200);
    const saved = transcriptSchema.parse(await again.json());
    expect(saved.version).toBe(before.version + 1);
    expect(saved.words[20]!.text).toBe('kept');
    for (const [name, svc] of Object.entries(sys.stack.services)) {
      await eventually(async () => ((await fetch(`${svc.url}/healthz`)).status === 200 ? true : undefined), 30_000, `${name} healthy again`);
    }
  }, 300_000);
});
