import { formatHttpError } from '@wordcut/contracts';
import type { QueryFunction } from '@tanstack/react-query';
import { currentBearerToken } from './gatewaySession';

/** The page's identity on a call unless the caller chose one: every API route needs it. */
function withIdentity(headers: Headers): Headers {
  if (!headers.has('authorization')) {
    const token = currentBearerToken();
    if (token) headers.set('authorization', `Bearer ${token}`);
  }
  return headers;
}

/**
 * The default fetcher: every call carries credentials (cookies), a JSON
 * body carries a JSON content type, and a non-OK answer raises an error whose message is
 * `<status>: <body text or status text>`.
 */

/** A non-OK HTTP answer. `message` is `<status>: <body text or status text>`; status and body stay readable. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly bodyText: string,
  ) {
    super(formatHttpError(status, bodyText, statusText));
  }

  /** The parsed JSON error body (statusCode, code, error, message) when the server sent one. */
  get body(): unknown {
    try {
      return JSON.parse(this.bodyText) as unknown;
    } catch {
      return undefined;
    }
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/**
 * A human text for an error: the `message` of the server's JSON error body when there is
 * one, else the error's own message.
 */
export function describeError(err: unknown): string {
  if (isApiError(err)) {
    const body = err.body;
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message;
    }
    return err.message;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

export interface ApiFetchInit extends Omit<RequestInit, 'body' | 'credentials'> {
  /** Sent as JSON with `content-type: application/json`. Mutually exclusive with `body`. */
  json?: unknown;
  /** A raw body (FormData, Blob, string...), sent as is; the browser sets its content type. */
  body?: BodyInit | null;
}

/** Throws an {@link ApiError} unless `res.ok`. */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  let bodyText = '';
  try {
    bodyText = await res.text();
  } catch {
    bodyText = '';
  }
  throw new ApiError(res.status, res.statusText, bodyText);
}

/** `fetch` with the page's defaults (credentials, JSON body). Resolves with the OK response, rejects with {@link ApiError}. */
export async function apiFetch(url: string, init: ApiFetchInit = {}): Promise<Response> {
  const { json, body, headers: given, ...rest } = init;
  const headers = withIdentity(new Headers(given));
  let payload: BodyInit | null | undefined = body;
  if (json !== undefined) {
    if (body !== undefined) throw new TypeError('apiFetch: pass either `json` or `body`, not both');
    headers.set('content-type', 'application/json');
    payload = JSON.stringify(json);
  }
  const res = await fetch(url, { ...rest, headers, body: payload, credentials: 'include' });
  await throwIfNotOk(res);
  return res;
}

/** Parses a response body as JSON; an empty body (e.g. 204) gives `null`. */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** {@link apiFetch} and parse the JSON answer. */
export async function apiJson<T>(url: string, init: ApiFetchInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  return readJson<T>(await apiFetch(url, { ...init, headers }));
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default query function: GET on the query key parts joined with '/'
 * (`['/api/videos', id]` -> `/api/videos/<id>`). With `on401: 'returnNull'` a 401 answer
 * means "no data" instead of an error.
 */
export function getQueryFn<T>(options: { on401?: UnauthorizedBehavior } = {}): QueryFunction<T | null> {
  const on401 = options.on401 ?? 'throw';
  return async ({ queryKey, signal }) => {
    const url = queryKey.map((part) => String(part)).join('/');
    const res = await fetch(url, { credentials: 'include', signal, headers: withIdentity(new Headers({ accept: 'application/json' })) });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return readJson<T>(res);
  };
}
