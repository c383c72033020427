/**
 * Object storage going away under an upload: the S3 server stops while the video is being sent.
 * The upload is refused with 503 and a clear message, nothing is recorded (no video row, no job,
 * no object once the server is back), and once it is back the same upload succeeds.
 * Requires the services to be built (`npm run build:services`).
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@wordcut/storage';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT } from '../stack/stack';
import { eventually } from '../testing/env';
import { bearer, startGatewaySession, type GatewaySessionForTest } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 14200, media: 14201, jobs: 14202, export: 14203, analytics: 14204 };
const MEDIA = join(ROOT, '.data', 'test-media');
const BOUNDARY = '----wordcut-s3-outage';

/** A multipart body (video + vtt) that trickles out: `chunk` bytes every `gapMs`, so the upload is still going when the test acts. */
function slowUpload(video: Buffer, vtt: string, chunk: number, gapMs: number): ReadableStream<Uint8Array> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="video"; filename="outage.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="vtt"; filename="demo.vtt"\r\nContent-Type: text/vtt\r\n\r\n${vtt}\r\n--${BOUNDARY}--\r\n`);
  const body = Buffer.concat([head, video, tail]);
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= body.length) {
        controller.close();
        return;
      }
      await new Promise((r) => setTimeout(r, gapMs));
      controller.enqueue(new Uint8Array(body.subarray(offset, offset + chunk)));
      offset += chunk;
    },
  });
}

describe('the S3 server stopping during an upload', () => {
  let sys: TestSystem;
  let db: Client;
  let owner: GatewaySessionForTest;
  let restarted: LocalS3 | undefined;

  beforeAll(async () => {
    execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), MEDIA], { stdio: 'ignore' });
    sys = await startSystem({ name: 's3out', ports: PORTS });
    db = new Client({ connectionString: sys.env.DATABASE_URL });
    await db.connect();
    owner = await startGatewaySession(sys.stack.services.gateway.url);
  }, 300_000);

  afterAll(async () => {
    await db?.end();
    await restarted?.close();
    await sys?.close();
  });

  it('refuses the upload with 503, records nothing, and takes the same upload once S3 is back', async () => {
    const video = readFileSync(join(MEDIA, 'demo.mp4'));
    const vtt = readFileSync(join(MEDIA, 'demo.vtt'), 'utf8');
    const port = Number(new URL(sys.s3.endpoint).port);
    const sending = fetch(sys.api('/api/videos/upload'), {
      method: 'POST',
      headers: { ...bearer(owner.token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: slowUpload(video, vtt, 64 * 1024, 40),
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    await new Promise((r) => setTimeout(r, 300));
    await sys.s3.close();
    const res = await sending;
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The file could not be stored right now. Please try again in a moment.' });
    expect((await db.query('SELECT count(*)::int AS n FROM library.videos')).rows[0]).toEqual({ n: 0 });
    expect((await db.query('SELECT count(*)::int AS n FROM jobs.jobs')).rows[0]).toEqual({ n: 0 });

    // the same server back on the same port and directory
    restarted = await startLocalS3({ port, directory: join(sys.dir, 's3') });
    const listed = await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET }));
    expect((listed.Contents ?? []).map((o) => o.Key)).toEqual([]);

    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'outage.mp4');
    form.append('vtt', new Blob([vtt], { type: 'text/vtt' }), 'demo.vtt');
    const again = await fetch(sys.api('/api/videos/upload'), { method: 'POST', headers: bearer(owner.token), body: form });
    expect(again.status).toBe(201);
    const { id } = (await again.json()) as { id: string };
    await eventually(async () => {
      const v = (await (await fetch(sys.api(`/api/videos/${id}`), { headers: bearer(owner.token) })).json()) as { status: string };
      return v.status === 'completed' ? v : undefined;
    }, 120_000, 'the upload after S3 returned is ready');
    for (const [name, svc] of Object.entries(sys.stack.services)) {
      await eventually(async () => ((await fetch(`${svc.url}/healthz`)).status === 200 ? true : undefined), 30_000, `${name} healthy`);
    }
  }, 300_000);
});
