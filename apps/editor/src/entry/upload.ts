import type { Video } from '@wordcut/contracts';
import { ensureGatewaySession, getSessionToken } from '@wordcut/ui';
import { UPLOAD_PATH } from '../shared/api';

/**
 * The legacy upload (POST /api/videos/upload) with real progress: fetch cannot
 * report upload progress, XMLHttpRequest can (upload.onprogress). Credentials are included,
 * like every other call.
 */

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0..100, whole numbers */
  percent: number;
}

/** Why an upload did not give a video. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    message: string,
    /** HTTP status, 0 for network failures and cancellation */
    readonly status: number,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

export function progressOf(loaded: number, total: number): UploadProgress {
  const percent = total > 0 ? Math.min(100, Math.max(0, Math.floor((loaded / total) * 100))) : 0;
  return { loaded, total, percent };
}

/**
 * The text to show for a refused upload: the `message` of the server's JSON error body
 * ({statusCode, code, error, message}), else `<status>: <body or status text>`.
 */
export function uploadErrorMessage(status: number, statusText: string, bodyText: string): string {
  try {
    const body = JSON.parse(bodyText) as unknown;
    if (body && typeof body === 'object') {
      const message = (body as { message?: unknown }).message;
      if (typeof message === 'string' && message) return message;
      if (Array.isArray(message) && message.length > 0) return message.map(String).join('; ');
    }
  } catch {
    // not JSON
  }
  return `${status}: ${bodyText || statusText}`;
}

/** Multipart field names; the values of UPLOAD_VIDEO_FIELD / UPLOAD_VTT_FIELD in @wordcut/contracts (kept local so zod stays out of the bundle). */
export const UPLOAD_VIDEO_FIELD = 'video';
export const UPLOAD_VTT_FIELD = 'vtt';

/** The multipart body: the video, and the caption file when there is one (without it the video is transcribed). */
export function uploadForm(video: File, vtt: File | null): FormData {
  const form = new FormData();
  form.append(UPLOAD_VIDEO_FIELD, video, video.name);
  if (vtt) form.append(UPLOAD_VTT_FIELD, vtt, vtt.name);
  return form;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** for tests; defaults to the browser's XMLHttpRequest */
  createRequest?: () => XMLHttpRequest;
  /** the uploader's identity (the uploader owns the video) */
  token?: string | null;
}

/**
 * The identity an upload is made with: the tab's provider session, else a WordCut session
 * (started when there is none). Rejects with {@link UploadError} when no session can be had.
 */
export async function startUploadSession(ensure: () => Promise<string> = ensureGatewaySession): Promise<string> {
  const provider = getSessionToken();
  if (provider) return provider;
  try {
    return await ensure();
  } catch (err) {
    throw new UploadError(err instanceof Error ? err.message : String(err), 0);
  }
}

/** Uploads the two files; resolves with the created video (201), rejects with {@link UploadError}. */
export function uploadVideo(video: File, vtt: File | null, options: UploadOptions = {}): Promise<Video> {
  const { onProgress, signal, createRequest = () => new XMLHttpRequest(), token } = options;
  return new Promise<Video>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadError('Upload cancelled.', 0, true));
      return;
    }
    const xhr = createRequest();
    const onAbortSignal = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbortSignal);
    xhr.open('POST', UPLOAD_PATH);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(progressOf(event.loaded, event.total));
    };
    xhr.onload = () => {
      done();
      const bodyText = typeof xhr.responseText === 'string' ? xhr.responseText : '';
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const created = JSON.parse(bodyText) as Video;
          if (!created || typeof created.id !== 'string') throw new Error('no id');
          resolve(created);
        } catch {
          reject(new UploadError('The server accepted the upload but did not answer with a video.', xhr.status));
        }
        return;
      }
      reject(new UploadError(uploadErrorMessage(xhr.status, xhr.statusText, bodyText), xhr.status));
    };
    xhr.onerror = () => {
      done();
      reject(new UploadError('Network error: the upload did not reach the server.', 0));
    };
    xhr.onabort = () => {
      done();
      reject(new UploadError('Upload cancelled.', 0, true));
    };
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send(uploadForm(video, vtt));
  });
}
