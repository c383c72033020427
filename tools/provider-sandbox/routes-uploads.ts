/**
 * Upload routes: starting a resumable upload on a session's URL, its chunks and status queries on
 * the session URI, and the single-request upload; plus what their requests announce in headers.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type http from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { drain, header, HttpError, SAFE_NAME, sendJson } from './http';
import type { Route } from './routing';
import type { SandboxState } from './state';
import { MAX_UPLOAD_BYTES, parseContentRange, rangeHeader, sha256File, UPLOAD_KINDS, type UploadKind } from './uploads';

export function uploadRoutes(s: SandboxState): Route[] {
  const { resumable } = s;
  return [
    {
      // the resumable session URI: chunks and status queries; the URI itself is the credential
      method: ['PUT'],
      path: /^\/uploads\/resumable\/([^/]+)$/,
      readsBody: true,
      handle: async ({ req, res, m, body }) => {
        const u = resumable.get(decodeURIComponent(m[1]!));
        if (!u) {
          await drain(body);
          throw new HttpError(404, 'no such upload session (start a new one)', 'not_found');
        }
        const range = parseContentRange(header(req, 'content-range'));
        if (!range) {
          await drain(body);
          throw new HttpError(400, "Content-Range must be 'bytes <first>-<last>/<total>' or 'bytes */<total>'", 'bad_request');
        }
        const outcome = await resumable.put(u, range, body);
        if (outcome.kind === 'completed') sendJson(res, 200, outcome.answer);
        else res.writeHead(308, { ...rangeHeader(outcome.received), 'content-length': '0' }).end();
      },
    },
    {
      method: ['PUT', 'POST'],
      path: /^\/uploads\/([^/]+)\/([^/]+)$/,
      readsBody: true,
      handle: async ({ req, res, url, m, body }) => {
        const { sessionId, kind } = uploadTarget(m);
        if (req.method === 'POST' && url.searchParams.get('uploadType') === 'resumable') {
          const claims = await s.authenticate(req);
          if (claims.sessionId !== sessionId) throw new HttpError(403, 'This session token belongs to another session.', 'forbidden');
          s.sessionVideo(sessionId, claims);
          const u = await resumable.create({ sessionId, kind, owner: claims.sub, ...uploadHeaders(req) });
          await drain(body);
          const location = `${s.baseUrl}/uploads/resumable/${u.uploadId}`;
          sendJson(res, 200, { uploadId: u.uploadId, location }, { location });
          return;
        }
        // the single-request upload: the whole body at once
        const claims = header(req, 'authorization') ? await s.authenticate(req) : undefined;
        if (claims && claims.sessionId !== sessionId) throw new HttpError(403, 'This session token belongs to another session.', 'forbidden');
        s.sessionVideo(sessionId, claims);
        const uploadId = `up_${randomUUID()}`;
        const path = join(s.uploadDir, uploadId);
        const file = createWriteStream(path);
        await pipeline(body, file);
        const answer = await s.fileUpload(
          { uploadId, sessionId, kind, contentType: header(req, 'content-type') ?? null, name: uploadName(req), owner: claims?.sub ?? 'unknown', path },
          file.bytesWritten,
          await sha256File(path),
        );
        // the body keeps its original shape; what the library made of it is in headers
        const made = { 'x-upload-id': uploadId, 'x-provider-video-id': answer.providerVideoId ?? '', 'x-content-sha256': answer.sha256 };
        sendJson(res, 200, { ok: true, session: sessionId, kind, bytes: answer.bytes }, made);
      },
    },
  ];
}

/** The session and kind of an upload URL `/uploads/<session>/<kind>`. */
function uploadTarget(m: RegExpExecArray): { sessionId: string; kind: UploadKind } {
  const sessionId = decodeURIComponent(m[1]!);
  const kind = m[2]!;
  if (!SAFE_NAME.test(sessionId)) throw new HttpError(400, 'bad session id', 'bad_request');
  if (!(UPLOAD_KINDS as readonly string[]).includes(kind)) {
    throw new HttpError(404, `unknown upload kind '${kind}' (expected ${UPLOAD_KINDS.join(', ')})`, 'not_found');
  }
  return { sessionId, kind: kind as UploadKind };
}

/** What a resumable upload announces in its headers (Google's X-Upload-* plus our name and checksum). */
function uploadHeaders(req: http.IncomingMessage): { total: number; contentType: string; name: string | null; expectedSha256: string | null } {
  const length = header(req, 'x-upload-content-length');
  if (!length || !/^\d{1,15}$/.test(length)) throw new HttpError(400, 'X-Upload-Content-Length (the total size in bytes) is required', 'bad_request');
  const total = Number(length);
  if (total > MAX_UPLOAD_BYTES) throw new HttpError(413, `uploads are limited to ${MAX_UPLOAD_BYTES} bytes`, 'too_large');
  const sha = header(req, 'x-upload-content-sha256') ?? null;
  if (sha !== null && !/^[0-9a-fA-F]{64}$/.test(sha)) throw new HttpError(400, 'X-Upload-Content-Sha256 must be 64 hex digits', 'bad_request');
  return { total, contentType: header(req, 'x-upload-content-type') ?? 'application/octet-stream', name: uploadName(req), expectedSha256: sha?.toLowerCase() ?? null };
}

/** X-Upload-Name, URL-encoded (a clip's title); ?name= on single-request uploads. */
function uploadName(req: http.IncomingMessage): string | null {
  const raw = header(req, 'x-upload-name') ?? new URL(req.url ?? '/', 'http://x').searchParams.get('name');
  if (!raw) return null;
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, 'X-Upload-Name must be URL-encoded', 'bad_request');
  }
  return name.trim().slice(0, 300) || null;
}
