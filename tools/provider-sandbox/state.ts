/**
 * What every route of the sandbox shares: the library and its sessions, completed and resumable
 * uploads, faults, the request and webhook logs, the keys, and the operations on them (authenticate,
 * a session's video, filing a completed upload, holding a request, reset).
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderMedia } from '@wordcut/contracts';
import { FaultStore, RequestLog } from './faults';
import { loadOrCreateKeys, type SandboxKeys } from './keys';
import { Library, type LibraryVideo, type StoredFile } from './library';
import { authenticate, signSandboxToken } from './tokens';
import type { ProviderSandboxOptions, SandboxTokenClaims, SignTokenOptions, TokenClaims, UploadRecord } from './types';
import { ResumableUploads, type ResumableUpload, type UploadAnswer } from './uploads';
import { DEFAULT_WEBHOOK_SECRET, WebhookSender } from './webhooks';

/** A completed upload as fileUpload takes it (resumable or one request). */
export type CompletedUpload = Pick<ResumableUpload, 'uploadId' | 'sessionId' | 'kind' | 'name' | 'owner' | 'path'> & { contentType: string | null };

export interface SandboxState {
  readonly o: ProviderSandboxOptions;
  readonly issuer: string;
  readonly audience: string;
  /** without a trailing slash */
  readonly editorUrl: string;
  readonly keys: SandboxKeys;
  /** where uploaded bytes are kept (a fresh temp directory) */
  readonly uploadDir: string;
  readonly uploads: Map<string, UploadRecord>;
  /** pending holds, cleared on close */
  readonly timers: Set<NodeJS.Timeout>;
  readonly library: Library;
  readonly faults: FaultStore;
  readonly log: RequestLog;
  /** clone answers by user, session and Idempotency-Key: a retried clone makes no second copy */
  readonly clones: Map<string, { token: string; sessionId: string; videoId: string }>;
  readonly webhookSecret: string;
  readonly webhooks: WebhookSender;
  readonly resumable: ResumableUploads;
  /** the sandbox's public URL; set once the server listens */
  baseUrl: string;
  signToken(claims: SandboxTokenClaims, so?: SignTokenOptions): Promise<string>;
  /** The caller's session token, verified. */
  authenticate(req: http.IncomingMessage): Promise<TokenClaims>;
  /** The library video a session edits; a session first seen in a valid token joins the library. */
  sessionVideo(sessionId: string, claims?: TokenClaims): LibraryVideo;
  uploadUrls(sessionId: string): ProviderMedia;
  /** Files a completed upload in the library, then tells the webhook receiver. */
  fileUpload(u: CompletedUpload, bytes: number, sha256: string): Promise<UploadAnswer>;
  /** Waits `ms`, or until the client goes away. */
  hold(ms: number, res: http.ServerResponse): Promise<void>;
  /** Forgets library, uploads, faults, request and webhook logs. */
  reset(): Promise<void>;
}

export async function createSandboxState(o: ProviderSandboxOptions): Promise<SandboxState> {
  const issuer = o.issuer ?? 'wordcut-provider-sandbox';
  const audience = o.audience ?? 'wordcut';
  const keys = await loadOrCreateKeys(o.keyDir);
  const publicKey = createPublicKey(keys.privateKey);
  const uploadDir = await mkdtemp(join(tmpdir(), 'wordcut-provider-sandbox-'));
  const uploads = new Map<string, UploadRecord>();
  const timers = new Set<NodeJS.Timeout>();
  const library = new Library();
  const faults = new FaultStore();
  const log = new RequestLog();
  const clones = new Map<string, { token: string; sessionId: string; videoId: string }>();
  const webhookSecret = o.webhookSecret ?? DEFAULT_WEBHOOK_SECRET;
  const webhooks = new WebhookSender({ url: o.webhookUrl, secret: webhookSecret, retryDelaysMs: o.webhookRetryDelaysMs ?? [200, 400, 800], timeoutMs: o.webhookTimeoutMs ?? 5000 });

  const sessionVideo = (sessionId: string, claims?: TokenClaims): LibraryVideo =>
    library.videoOfSession(sessionId) ??
    library.openSession(
      claims
        ? { videoId: claims.videoId, sessionId, title: claims.title ?? claims.videoId, kind: claims.isClone ? 'clone' : 'original', owner: claims.sub, media: downloadUrls(claims.media) }
        : { videoId: sessionId, sessionId, title: `Session ${sessionId}`, kind: 'original', owner: 'unknown' },
    );

  const fileUpload = async (u: CompletedUpload, bytes: number, sha256: string): Promise<UploadAnswer> => {
    const video = sessionVideo(u.sessionId);
    const file: StoredFile = { uploadId: u.uploadId, bytes, sha256, contentType: u.contentType, uploadedAt: new Date().toISOString(), path: u.path };
    let providerVideoId = video.videoId;
    if (u.kind === 'clip') {
      const title = u.name ?? `Clip ${video.clips.length + 1}`;
      providerVideoId = library.addClip(video.videoId, { videoId: `vid_${randomUUID()}`, sessionId: u.sessionId, title, owner: u.owner, file }).videoId;
    } else {
      library.storeFile(video.videoId, u.kind, file);
    }
    uploads.set(`${u.sessionId}/${u.kind}`, { bytes, contentType: u.contentType, path: u.path, uploadId: u.uploadId, providerVideoId, sha256 });
    const answer: UploadAnswer = { uploadId: u.uploadId, providerVideoId, bytes, sha256 };
    const data = { sessionId: u.sessionId, uploadId: u.uploadId, kind: u.kind, providerVideoId, bytes, sha256 };
    webhooks.deliverInOrder([{ event: webhooks.event('upload.completed', data) }, { event: webhooks.event('video.ready', data), delayMs: o.webhookReadyDelayMs ?? 100 }]);
    return answer;
  };

  const resumable = new ResumableUploads(
    uploadDir,
    (u, sha256) => fileUpload(u, u.total, sha256),
    (u) => webhooks.deliverInOrder([{ event: webhooks.event('upload.failed', { sessionId: u.sessionId, uploadId: u.uploadId, kind: u.kind, providerVideoId: null, bytes: u.received }) }]),
  );

  const state: SandboxState = {
    o,
    issuer,
    audience,
    editorUrl: o.editorUrl.replace(/\/+$/, ''),
    keys,
    uploadDir,
    uploads,
    timers,
    library,
    faults,
    log,
    clones,
    webhookSecret,
    webhooks,
    resumable,
    baseUrl: '',
    signToken: (claims, so = {}) => signSandboxToken(keys, claims, { issuer, audience, ...so }),
    authenticate: (req) => authenticate(req, publicKey, { issuer, audience }),
    sessionVideo,
    uploadUrls: (sessionId) => {
      const base = `${state.baseUrl}/uploads/${encodeURIComponent(sessionId)}`;
      return { uploadUrlVideo: `${base}/video`, uploadUrlVtt: `${base}/vtt`, uploadUrlWordByword: `${base}/wordByword` };
    },
    fileUpload,
    hold: (ms, res) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(done, ms);
        timers.add(t);
        res.once('close', done);
        function done(): void {
          clearTimeout(t);
          timers.delete(t);
          resolve();
        }
      }),
    reset: async () => {
      library.clear();
      uploads.clear();
      resumable.clear();
      faults.clear();
      log.clear();
      clones.clear();
      webhooks.reset();
      await rm(uploadDir, { recursive: true, force: true });
      await mkdir(uploadDir, { recursive: true });
    },
  };
  return state;
}

/** The download URLs of a token's media, as the library keeps them. */
export function downloadUrls(media: ProviderMedia | undefined): LibraryVideo['media'] {
  const out: LibraryVideo['media'] = {};
  if (media?.videoUrl) out.videoUrl = media.videoUrl;
  if (media?.vttUrl) out.vttUrl = media.vttUrl;
  if (media?.wordBywordUrl) out.wordBywordUrl = media.wordBywordUrl;
  return out;
}
