import { planSchema, providerMediaSchema, quotaUsageSchema, refreshTokenResponseSchema, usageSnapshotSchema } from '@wordcut/contracts';
import type { MediaUrls, Plan, ProviderMedia, QuotaUsage, UsageSnapshot } from '@wordcut/contracts';
import { TOKEN_REFRESH_INTERVAL_MS, TOKEN_REFRESH_RETRY_MS, decodeTokenClaims, quotaWindows } from '@wordcut/publishing';
import { createStore, useStoreValue } from './store';

/**
 * The provider session token and what it carries (plan, usage, media addresses, language), kept
 * fresh by a refresh every 10 minutes. One store for the whole page: `@wordcut/ui` is a Module
 * Federation singleton, so the shell, the editor and the publish remote all read and write this
 * very instance, and a refreshed token is seen by every call that needs a bearer header.
 *
 * The token lives in sessionStorage ('wordcut_session_token', the key the editor always used), so
 * a reload of the tab keeps the session; where storage is blocked the in-memory state still serves
 * the page. The payload is decoded (not verified: the gateway verifies it) only to show the plan,
 * usage and media addresses; what the server answers on refresh overrides what the token says.
 */

export const SESSION_TOKEN_KEY = 'wordcut_session_token';
export const REFRESH_TOKEN_PATH = '/api/wordcut/refresh-token';
export const QUOTA_PATH = '/api/wordcut/quota';

export interface SessionState {
  token: string | null;
  uploadUrls: MediaUrls;
  downloadUrls: MediaUrls;
  plan: Plan | null;
  usage: QuotaUsage | null;
  languageCode: string | null;
  /** the provider's editing session id (token claim `sessionId`) */
  sessionId: string | null;
  /** the provider's id of the video being edited (token claim `videoId`) */
  providerVideoId: string | null;
  isClone: boolean;
  /** Date.now() of the last successful refresh; null until one happened */
  refreshedAt: number | null;
}

export interface SessionExtra {
  uploadUrls?: MediaUrls;
  downloadUrls?: MediaUrls;
  plan?: Plan;
  usage?: QuotaUsage;
  languageCode?: string;
}

const EMPTY: SessionState = Object.freeze({
  token: null,
  uploadUrls: Object.freeze({}),
  downloadUrls: Object.freeze({}),
  plan: null,
  usage: null,
  languageCode: null,
  sessionId: null,
  providerVideoId: null,
  isClone: false,
  refreshedAt: null,
});

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function readStored(): string | null {
  try {
    return storage()?.getItem(SESSION_TOKEN_KEY)?.trim() || null;
  } catch {
    return null;
  }
}

function writeStored(token: string | null): void {
  try {
    const s = storage();
    if (!s) return;
    if (token === null) s.removeItem(SESSION_TOKEN_KEY);
    else s.setItem(SESSION_TOKEN_KEY, token);
  } catch {
    // quota or security errors: the in-memory state still serves this page
  }
}

/** Only the addresses that are present (so `{}` means "none known"). */
function compact(urls: Record<keyof MediaUrls, string | undefined>): MediaUrls {
  const out: MediaUrls = {};
  if (urls.video) out.video = urls.video;
  if (urls.vtt) out.vtt = urls.vtt;
  if (urls.wordByword) out.wordByword = urls.wordByword;
  return out;
}

function uploadUrlsOf(media: ProviderMedia | undefined): MediaUrls | null {
  if (!media) return null;
  return compact({ video: media.uploadUrlVideo, vtt: media.uploadUrlVtt, wordByword: media.uploadUrlWordByword });
}

function downloadUrlsOf(media: ProviderMedia | undefined): MediaUrls | null {
  if (!media) return null;
  return compact({ video: media.videoUrl, vtt: media.vttUrl, wordByword: media.wordBywordUrl });
}

/**
 * The token's usage snapshot as the quota the browser shows: the counts from the snapshot, the
 * limits from the plan, the monthly reset from the snapshot's nextResetTime (else the next UTC
 * month start) and the daily reset at the next UTC midnight (the quota's clock, libs/publishing).
 */
export function usageFromSnapshot(plan: Plan | null, snapshot: Partial<UsageSnapshot> | undefined, now: Date = new Date()): QuotaUsage | null {
  if (!snapshot) return null;
  const windows = quotaWindows(now);
  return {
    exportsToday: snapshot.exportsToday ?? 0,
    maxPerDay: plan?.quotas.exportsPerDay ?? null,
    exportsThisMonth: snapshot.exportsThisMonth ?? 0,
    maxPerMonth: plan?.quotas.exportsPerMonth ?? null,
    nextDailyReset: windows.nextDailyReset.toISOString(),
    nextMonthlyReset: snapshot.nextResetTime || windows.nextMonthlyReset.toISOString(),
  };
}

/** The claims this page reads from a token, each checked on its own (one odd claim spoils no other). */
interface SessionClaims {
  sessionId: string | null;
  videoId: string | null;
  plan: Plan | null;
  usageSnapshot: UsageSnapshot | undefined;
  languageCode: string | null;
  media: ProviderMedia | undefined;
  isClone: boolean;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

function readClaims(token: string): SessionClaims | null {
  const raw = decodeTokenClaims(token);
  if (!raw) return null;
  const plan = planSchema.safeParse(raw.plan);
  const usage = usageSnapshotSchema.safeParse(raw.usageSnapshot);
  const media = providerMediaSchema.safeParse(raw.media);
  return {
    sessionId: text(raw.sessionId),
    videoId: text(raw.videoId),
    plan: plan.success ? plan.data : null,
    usageSnapshot: raw.usageSnapshot !== undefined && usage.success ? usage.data : undefined,
    languageCode: text(raw.languageCode),
    media: raw.media !== undefined && media.success ? media.data : undefined,
    isClone: raw.isClone === true,
  };
}

/**
 * The state a token gives: its decoded claims, overridden by what the caller knows better
 * (`extra`, e.g. the refresh answer). Media addresses the new token does not carry are kept from
 * the previous state when it is the same provider session (a refresh may leave them out).
 */
function stateFor(token: string, extra: SessionExtra, previous: SessionState, refreshedAt: number | null): SessionState {
  const claims = readClaims(token);
  const sessionId = claims?.sessionId ?? null;
  const sameSession = previous.token !== null && sessionId !== null && sessionId === previous.sessionId;
  const plan = extra.plan ?? claims?.plan ?? null;
  return {
    token,
    uploadUrls: extra.uploadUrls ?? uploadUrlsOf(claims?.media) ?? (sameSession ? previous.uploadUrls : EMPTY.uploadUrls),
    downloadUrls: extra.downloadUrls ?? downloadUrlsOf(claims?.media) ?? (sameSession ? previous.downloadUrls : EMPTY.downloadUrls),
    plan,
    usage: extra.usage ?? usageFromSnapshot(plan, claims?.usageSnapshot),
    languageCode: extra.languageCode ?? claims?.languageCode ?? null,
    sessionId,
    providerVideoId: claims?.videoId ?? null,
    isClone: claims?.isClone ?? false,
    refreshedAt,
  };
}

// the tab's session is restored on module load (a reload keeps it)
const storedToken = readStored();
const session = createStore<SessionState>(storedToken ? stateFor(storedToken, {}, EMPTY, null) : EMPTY);

function applyToken(token: string, extra: SessionExtra, refreshedAt: number | null): void {
  const trimmed = token.trim();
  if (!trimmed) throw new Error('setToken: the token is empty');
  writeStored(trimmed);
  session.set(stateFor(trimmed, extra, session.get(), refreshedAt));
}

export const sessionStore = {
  get: session.get,
  subscribe: session.subscribe,
  /** A new token (from `?token=`, a clone or a refresh); `extra` overrides what its payload says. */
  setToken(token: string, extra: SessionExtra = {}): void {
    applyToken(token, extra, null);
  },
  clear(): void {
    writeStored(null);
    session.set(EMPTY);
  },
};

/** The session state; re-renders on every change of it. */
export function useSession(): SessionState {
  return useStoreValue(session, (state) => state);
}

/** The current token, or null when the page was not opened from a provider session. */
export function getSessionToken(): string | null {
  return session.get().token;
}

/** `Authorization: Bearer <token>` for the given (default: the current) token, or {} without one. */
export function bearerHeaders(token: string | null = getSessionToken()): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/**
 * One call per token at a time: callers while one is under way share its answer (a timer tick and
 * a 401 retry at the same moment send one refresh; the shell and an opening dialog one usage read).
 * `call` gets the token it is for and resolves false on any failure: these calls never throw.
 */
function perTokenCall(call: (token: string, fetchImpl: typeof fetch) => Promise<boolean>): (fetchImpl?: typeof fetch) => Promise<boolean> {
  let inFlight: { token: string; promise: Promise<boolean> } | null = null;
  return (fetchImpl) => {
    const token = session.get().token;
    if (!token) return Promise.resolve(false);
    if (inFlight && inFlight.token === token) return inFlight.promise;
    const entry = { token, promise: call(token, fetchImpl ?? fetch).catch(() => false) };
    inFlight = entry;
    void entry.promise.finally(() => {
      if (inFlight === entry) inFlight = null;
    });
    return entry.promise;
  };
}

/** The JSON answer of an OK response to a call with the bearer token, parsed by `schema`; null when any of it fails. */
async function bearerJson<T>(
  fetchImpl: typeof fetch,
  path: string,
  token: string,
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false } },
  method?: 'POST',
): Promise<T | null> {
  const res = await fetchImpl(path, {
    ...(method ? { method } : {}),
    headers: { accept: 'application/json', ...bearerHeaders(token) },
    credentials: 'include',
  });
  if (!res.ok) return null;
  const parsed = schema.safeParse(JSON.parse(await res.text()));
  return parsed.success ? parsed.data : null;
}

/**
 * POST /api/wordcut/refresh-token with the current token as bearer. An OK answer replaces the token
 * and what the server says about it (media addresses, plan, usage, language) and resolves true. A
 * non-OK answer, a network error or an unreadable body resolve false and change nothing (the caller
 * retries silently). An answer for a token that was replaced meanwhile (a clone) is dropped: it
 * must not bring the old session back.
 */
export const refreshSessionToken = perTokenCall(async (token, fetchImpl) => {
  const answer = await bearerJson(fetchImpl, REFRESH_TOKEN_PATH, token, refreshTokenResponseSchema, 'POST');
  if (!answer || !answer.newToken.trim() || session.get().token !== token) return false;
  const { newToken, newUploadUrls, newDownloadUrls, plan, usage, languageCode } = answer;
  const extra: SessionExtra = { plan, usage };
  if (newUploadUrls) extra.uploadUrls = newUploadUrls;
  if (newDownloadUrls) extra.downloadUrls = newDownloadUrls;
  if (languageCode) extra.languageCode = languageCode;
  applyToken(newToken, extra, Date.now());
  return true;
});

/**
 * GET /api/wordcut/quota with the current token: the export usage the server counted replaces
 * the usage shown. A token's usageSnapshot is the provider's figure when it issued the token, so
 * a page opened (or reloaded) after exports would show too few until the next refresh; the shell
 * asks once per session and the publish dialog when it opens. A failure resolves false and keeps
 * what is shown; an answer for a token that was replaced meanwhile is dropped.
 */
export const refreshSessionUsage = perTokenCall(async (token, fetchImpl) => {
  const usage = await bearerJson(fetchImpl, QUOTA_PATH, token, quotaUsageSchema);
  if (!usage || session.get().token !== token) return false;
  session.set({ ...session.get(), usage });
  return true;
});

export interface TokenRefreshOptions {
  /** the normal cadence: 10 minutes */
  intervalMs?: number;
  /** the silent retry after a failed refresh: 30 s */
  retryMs?: number;
  fetchImpl?: typeof fetch;
}

/**
 * Keeps the token fresh: a refresh every 10 minutes; a failed one is tried again silently after
 * 30 s, and from that retry on (whatever its outcome) the normal cadence resumes, so a token
 * the server no longer accepts costs two calls per 10 minutes, not one every 30 s. A tick
 * without a token does nothing. Returns the function that stops it.
 */
export function startTokenRefresh(o: TokenRefreshOptions = {}): () => void {
  const intervalMs = o.intervalMs ?? TOKEN_REFRESH_INTERVAL_MS;
  const retryMs = o.retryMs ?? TOKEN_REFRESH_RETRY_MS;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const schedule = (ms: number, isRetry: boolean) => {
    if (stopped) return;
    timer = setTimeout(() => void tick(isRetry), ms);
  };
  const tick = async (isRetry: boolean) => {
    timer = null;
    if (stopped) return;
    if (!getSessionToken()) return schedule(intervalMs, false);
    const ok = await refreshSessionToken(o.fetchImpl);
    schedule(ok || isRetry ? intervalMs : retryMs, !ok && !isRetry);
  };

  schedule(intervalMs, false);
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
}
