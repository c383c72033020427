/**
 * Hostile "videos" through the real upload route (gateway → media worker's probe → ffmpeg): an HLS
 * playlist pointing at a loopback HTTP server, one pointing at a file on the worker's disk, an
 * ffconcat list, and an MP4 whose data reference points outside the file. Each answers 415 with a
 * clear message, nothing is stored, the loopback canary sees no request and the file is never
 * opened. Requires the services to be built (`npm run build:services`).
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffconcatList, hlsPlaylist, makeSmallMp4, startCanary, watchFile, withExternalDataReference, type Canary, type FileCanary } from '../../libs/ffmpeg/src/testing/hostile-media';
import { startGatewaySession, bearer } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13700, media: 13701, jobs: 13702, export: 13703, analytics: 13704 };
const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nhello there\n';

describe('hostile uploads: refused with 415, nothing stored, nothing fetched', () => {
  let sys: TestSystem;
  let canary: Canary;
  let secret: FileCanary;
  let dir: string;
  let token: string;
  let goodMp4: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wordcut-hostile-'));
    canary = await startCanary();
    secret = await watchFile(join(dir, 'secret.ts'));
    await makeSmallMp4(join(dir, 'small.mp4'));
    goodMp4 = readFileSync(join(dir, 'small.mp4'));
    sys = await startSystem({ name: 'hostile', ports: PORTS });
    token = (await startGatewaySession(sys.stack.services.gateway.url)).token;
  }, 180000);

  afterAll(async () => {
    await sys?.close();
    await canary?.close();
    await secret?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (video: Buffer | string, name: string) => {
    const form = new FormData();
    form.append('video', new Blob([typeof video === 'string' ? video : new Uint8Array(video)], { type: 'video/mp4' }), name);
    form.append('vtt', new Blob([VTT], { type: 'text/vtt' }), 'captions.vtt');
    return fetch(sys.api('/api/videos/upload'), { method: 'POST', headers: bearer(token), body: form });
  };
  const storedObjects = async () => (await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET, Prefix: 'videos/' }))).KeyCount ?? 0;

  const cases: Array<[string, () => Buffer | string, RegExp]> = [
    ['an HLS playlist of loopback http segments', () => hlsPlaylist([`${canary.base}/seg0.ts`, `${canary.base}/seg1.ts`]), /not a video in MP4 or MOV format/],
    ["an HLS playlist of file: segments on the worker's disk", () => hlsPlaylist([`file:${secret.path}`]), /not a video in MP4 or MOV format/],
    ['an ffconcat list', () => ffconcatList([secret.path, `${canary.base}/part.mp4`]), /not a video in MP4 or MOV format/],
    ['an MP4 whose data reference points outside the file', () => withExternalDataReference(goodMp4, `${canary.base}/media.mov`), /refers to data outside the file/],
  ];

  it.each(cases)('refuses %s', async (_name, body, message) => {
    const before = await storedObjects();
    const res = await upload(body(), 'talk.mp4');
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(message);
    expect(await storedObjects()).toBe(before);
    expect(canary.requests).toEqual([]);
    expect(secret.opened()).toBe(false);
  });

  it('accepts the same MP4 with its data in the file (the control)', async () => {
    const res = await upload(goodMp4, 'small.mp4');
    expect(res.status).toBe(201);
    expect(canary.requests).toEqual([]);
  });
});
