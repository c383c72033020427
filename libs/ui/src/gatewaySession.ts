import { getSessionToken } from './session';

/**
 * The WordCut session of someone who arrives through the upload form instead of from the
 * provider: the gateway issues it, the uploader owns what they upload with it, and the page
 * refreshes it every 10 minutes. It is kept in localStorage so the uploader keeps their videos
 * across tabs and reloads for as long as the session lasts. A provider session token in the tab
 * always wins: it is who the page works for.
 */

export const GATEWAY_SESSION_KEY = 'wordcut_gateway_session';
export const GATEWAY_SESSION_PATH = '/api/auth/session';
export const GATEWAY_SESSION_REFRESH_PATH = '/api/auth/session/refresh';
export const GATEWAY_SESSION_REFRESH_MS = 10 * 60 * 1000;
/** A session this close to its end is replaced rather than used. */
const END_MARGIN_MS = 60 * 1000;

export interface GatewaySession {
  token: string;
  userId: string;
  expiresAt: string;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isSession(v: unknown): v is GatewaySession {
  const s = v as Partial<GatewaySession> | null;
  return !!s && typeof s.token === 'string' && typeof s.userId === 'string' && typeof s.expiresAt === 'string' && !Number.isNaN(Date.parse(s.expiresAt));
}

function read(): GatewaySession | null {
  try {
    const raw = storage()?.getItem(GATEWAY_SESSION_KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : null;
    return isSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

let memory: GatewaySession | null = null;

function write(session: GatewaySession | null): void {
  memory = session;
  try {
    if (session) storage()?.setItem(GATEWAY_SESSION_KEY, JSON.stringify(session));
    else storage()?.removeItem(GATEWAY_SESSION_KEY);
  } catch {
    // storage blocked: the in-memory copy serves this page
  }
}

const usable = (s: GatewaySession | null, now: number): s is GatewaySession => !!s && Date.parse(s.expiresAt) - END_MARGIN_MS > now;

/** The current gateway session token (another tab may have refreshed it), or null when none is usable. */
export function gatewaySessionToken(now: number = Date.now()): string | null {
  const stored = read() ?? memory;
  return usable(stored, now) ? stored.token : null;
}

/** The bearer token of this page's calls: the provider session's, else the gateway session's. */
export function currentBearerToken(): string | null {
  return getSessionToken() ?? gatewaySessionToken();
}

async function post(fetchImpl: typeof fetch, path: string, token?: string): Promise<GatewaySession> {
  const res = await fetchImpl(path, {
    method: 'POST',
    credentials: 'include',
    headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const text = await res.text();
  if (!res.ok) {
    let message = `${res.status}: ${text || res.statusText}`;
    try {
      const body = JSON.parse(text) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      // not JSON
    }
    throw new Error(message);
  }
  const session = JSON.parse(text) as unknown;
  if (!isSession(session)) throw new Error('The server did not answer with a session.');
  return session;
}

let starting: Promise<string> | null = null;

/**
 * A usable gateway session token: the stored one, else a new session (POST /api/auth/session).
 * Concurrent callers share one request. Rejects with the server's message (e.g. uploads off).
 */
export function ensureGatewaySession(fetchImpl: typeof fetch = fetch): Promise<string> {
  const existing = gatewaySessionToken();
  if (existing) return Promise.resolve(existing);
  starting ??= post(fetchImpl, GATEWAY_SESSION_PATH)
    .then((session) => {
      write(session);
      return session.token;
    })
    .finally(() => {
      starting = null;
    });
  return starting;
}

/** Extends the stored session (same owner, new expiry); false when there is none or the server refused. */
export async function refreshGatewaySession(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const token = gatewaySessionToken();
  if (!token) return false;
  try {
    write(await post(fetchImpl, GATEWAY_SESSION_REFRESH_PATH, token));
    return true;
  } catch {
    return false;
  }
}

/** Refreshes the gateway session every `intervalMs` while the page is open; returns the stop function. */
export function startGatewaySessionRefresh(intervalMs: number = GATEWAY_SESSION_REFRESH_MS, fetchImpl?: typeof fetch): () => void {
  const timer = setInterval(() => void refreshGatewaySession(fetchImpl), intervalMs);
  return () => clearInterval(timer);
}

/** Forgets the gateway session (tests; a sign-out). */
export function clearGatewaySession(): void {
  write(null);
}
