/**
 * VideosService against a real Postgres (a throw-away database with the gateway's migrations;
 * the ingest request is a fake): ownership (a stranger's video answers 404 like a missing one),
 * the running-jobs limit at creation, one video per provider session, a stranger's session.
 */
import { identityEditList } from '@wordcut/edit-list';
import type { Messaging } from '@wordcut/messaging';
import { createLogger } from '@wordcut/platform';
import type { VerifiedProviderToken } from '@wordcut/provider';
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { rejectedWith } from '../../../../tools/testing/app-error';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import type { GatewayTokens } from '../auth/gateway-tokens';
import type { Identity } from '../auth/identity';
import type { GatewayConfig } from '../config';
import { RenderStore } from '../edits/render-store';
import { ActiveJobs, RateLimitStore } from '../limits/limits';
import type { IngestCoordinator } from './ingest';
import { VideoStore } from './video-store';
import { SESSION_NOT_FOUND, VideosService } from './videos.service';

const database = gatewayTestDatabase(4);
const videos = database.store(VideoStore);
const renders = database.store(RenderStore);
const rateLimits = database.store(RateLimitStore);
const ingest = { request: jest.fn(async () => undefined) };

/** The service with a running-jobs limit of `limit` per owner. */
function service(limit = 10): VideosService {
  return new VideosService(
    database.ds,
    { DEFAULT_LANGUAGE: 'en', LEGACY_UPLOAD_ENABLED: false } as GatewayConfig,
    {} as Messaging,
    {} as ObjectStorage,
    createLogger('videos-int-test', 'silent'),
    videos,
    ingest as unknown as IngestCoordinator,
    {} as GatewayTokens,
    rateLimits,
    new ActiveJobs(limit, renders, videos),
  );
}

/** A provider caller `ownerId` entering session `sessionId` with media to import. */
function entering(sessionId: string, ownerId: string): Identity {
  const provider = {
    sub: ownerId,
    sessionId,
    videoId: `pv-${sessionId}`,
    title: 'Talk',
    media: { videoUrl: 'https://provider.example.com/v.mp4', vttUrl: 'https://provider.example.com/v.vtt' },
    exp: Math.floor(Date.now() / 1000) + 600,
    ownerId,
  } as VerifiedProviderToken;
  return { userId: ownerId, via: 'provider', provider };
}

const ownerCount = async (ownerId: string) => (await database.ds.query(`SELECT count(*)::int AS n FROM library.videos WHERE owner_id = $1`, [ownerId])) as [{ n: number }];

beforeEach(() => ingest.request.mockClear());

describe('ownership', () => {
  it("answers someone else's video with the 404 of a missing one", async () => {
    const id = await database.insertVideo('owner-a');
    const videosService = service();
    await expect(videosService.owned(id, 'owner-a')).resolves.toMatchObject({ id, owner_id: 'owner-a' });
    const stranger = await rejectedWith(videosService.owned(id, 'owner-b'));
    const missingId = randomUUID();
    const missing = await rejectedWith(videosService.owned(missingId, 'owner-a'));
    expect(stranger).toMatchObject({ statusCode: 404, code: missing.code, message: `There is no video with id '${id}'.` });
    expect(missing).toMatchObject({ statusCode: 404, message: `There is no video with id '${missingId}'.` });
  });
});

describe('creation', () => {
  it("refuses a new video with 429 when its owner's running jobs (ingests and renders) reach the limit", async () => {
    const owner = `provider:p:${randomUUID()}`;
    const limit2 = service(2);
    await limit2.openProviderSession(entering(`session-${randomUUID()}`, owner));
    const other = await database.insertVideo(owner);
    await database.ds.transaction((tx) =>
      renders.insertActive(tx, { jobId: `cut_${randomUUID()}`, videoId: other, kind: 'cut', userId: owner, baseVersion: 0, base: identityEditList(1), next: identityEditList(1), clipId: null }),
    );
    const e = await rejectedWith(limit2.openProviderSession(entering(`session-${randomUUID()}`, owner)));
    expect(e).toMatchObject({ statusCode: 429, message: expect.stringContaining('You already have 2 jobs running') });
    expect(await ownerCount(owner)).toEqual([{ n: 2 }]);
    expect(ingest.request).toHaveBeenCalledTimes(1);
    // another owner is not held to it
    await expect(limit2.openProviderSession(entering(`session-${randomUUID()}`, `provider:p:${randomUUID()}`))).resolves.toMatchObject({ existing: false });
  });

  it('makes one video per provider session, also when two entries arrive at once', async () => {
    const session = `session-${randomUUID()}`;
    const videosService = service();
    const [ra, rb] = await Promise.all([videosService.openProviderSession(entering(session, 'provider-user')), videosService.openProviderSession(entering(session, 'provider-user'))]);
    expect(ra.video.id).toBe(rb.video.id);
    expect([ra.existing, rb.existing].sort()).toEqual([false, true]);
    // only the entry that created the video asks for its ingest
    expect(ingest.request).toHaveBeenCalledTimes(1);
    expect(await videosService.openProviderSession(entering(session, 'provider-user'))).toEqual({ success: true, video: { id: ra.video.id, title: 'Talk' }, existing: true });
    expect(await videos.getBySession(session, 'provider-user')).toMatchObject({ id: ra.video.id, status: 'uploaded' });
  });

  it("answers someone else's session with 404: neither a second video for it nor the owner's", async () => {
    const session = `session-${randomUUID()}`;
    const videosService = service();
    expect(await videosService.openProviderSession(entering(session, 'provider:p:owner'))).toMatchObject({ existing: false });
    const e = await rejectedWith(videosService.openProviderSession(entering(session, 'provider:p:stranger')));
    expect(e).toMatchObject({ statusCode: 404, message: SESSION_NOT_FOUND });
    expect(await database.ds.query(`SELECT owner_id FROM library.videos WHERE provider_session_id = $1`, [session])).toEqual([{ owner_id: 'provider:p:owner' }]);
    // two strangers racing for a fresh session: one video, the other entry a 404
    const fresh = `session-${randomUUID()}`;
    const results = await Promise.allSettled(['provider:p:a', 'provider:p:b'].map((ownerId) => videosService.openProviderSession(entering(fresh, ownerId))));
    expect(results.filter((r) => r.status === 'fulfilled' && !r.value.existing)).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && (r.reason as Error).message === SESSION_NOT_FOUND)).toHaveLength(1);
  });

  it('leaves no video when its ingest cannot be requested', async () => {
    const session = `session-${randomUUID()}`;
    ingest.request.mockRejectedValueOnce(new Error('bus down'));
    await expect(service().openProviderSession(entering(session, 'provider-user'))).rejects.toThrow('bus down');
    expect(await videos.sessionVideo(session, 'provider-user')).toBeUndefined();
  });
});
