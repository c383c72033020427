/**
 * Spec helpers of the publish remote (test-only; excluded from the app's tsconfig and bundle):
 * the shared browser fixtures of @wordcut/ui (fetch router, unsigned tokens, toast recorder,
 * providers) and what is the publish module's own: a published video, its clips, its session
 * token and export job statuses, and a render of the module at an editor route.
 */
import { MemoryRouter } from 'react-router-dom';
import type { ExportJobStatus, Video } from '@wordcut/contracts';
import { dismissToast, editorBridge, sessionStore } from '@wordcut/ui';
import { VIDEO_ID, makeToken, makeVideo as makeBaseVideo, recordToasts, renderWithProviders } from '@wordcut/ui/src/testing/fixtures';
import PublishModule from '../Module';
import type { PublishClipRecord } from '../api';

export { VIDEO_ID, makeToken, recordToasts, reply, routeFetch } from '@wordcut/ui/src/testing/fixtures';
export type { FetchCall, Handler } from '@wordcut/ui/src/testing/fixtures';

export const SESSION_ID = 'sess-original';
export const videoPath = `/api/videos/${VIDEO_ID}`;
export const clipsPath = `${videoPath}/clips`;

/** A video linked to a provider session, with a changed main video and subtitles to publish. */
export function makeVideo(patch: Partial<Video> = {}): Video {
  return makeBaseVideo({
    videoChanged: true,
    vttChanged: true,
    providerSessionId: SESSION_ID,
    providerVideoId: 'pv-1',
    ...patch,
  });
}

export function makeClip(patch: Partial<PublishClipRecord> & Pick<PublishClipRecord, 'id' | 'name'>): PublishClipRecord {
  return {
    videoId: VIDEO_ID,
    startTime: 1,
    endTime: 13,
    aspectRatio: '9:16',
    status: 'completed',
    providerUploadStatus: 'none',
    providerVideoId: null,
    ...patch,
  };
}

export const CLIP_A = '11111111-1111-4111-8111-111111111111';
export const CLIP_B = '22222222-2222-4222-8222-222222222222';
export const CLIP_C = '33333333-3333-4333-8333-333333333333';

/** The session's token: the video's provider session, a pro plan and this month's usage. */
export function sessionToken(patch: Record<string, unknown> = {}): string {
  return makeToken({
    sub: 'user-1',
    sessionId: SESSION_ID,
    videoId: 'pv-1',
    plan: { tier: 'pro', quotas: { exportsPerDay: 10, exportsPerMonth: 100 } },
    usageSnapshot: { exportsToday: 1, exportsThisMonth: 5 },
    languageCode: 'en',
    ...patch,
  });
}

export function jobStatus(patch: Partial<ExportJobStatus> & Pick<ExportJobStatus, 'status'>): ExportJobStatus {
  return {
    jobId: 'export_1',
    progress: 0,
    currentStep: '',
    estimatedCompletion: null,
    videoId: VIDEO_ID,
    items: [],
    error: null,
    retryOf: null,
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    ...patch,
  };
}

export function renderPublish(path = `/editor/${VIDEO_ID}`) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <PublishModule basePath="/" />
    </MemoryRouter>,
  );
}

/**
 * Per-test session of a spec (call at its top level): before each test no toast is shown, the
 * session holds `token` and the editor bridge is empty; after it the session is cleared. `all`
 * lists the toasts of the running test.
 */
export function signedInWithToasts(token: string): { readonly all: ReturnType<typeof recordToasts>['all'] } {
  let toasts: ReturnType<typeof recordToasts>;
  beforeEach(() => {
    dismissToast();
    sessionStore.setToken(token);
    editorBridge.reset();
    toasts = recordToasts();
  });
  afterEach(() => {
    toasts.stop();
    sessionStore.clear();
  });
  return {
    get all() {
      return toasts.all;
    },
  };
}
