import { ErrorCode } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';

export interface ReceivedFile {
  key: string;
  sizeBytes: number;
  originalName: string;
  declaredType: string;
}

/** Display-only clean-up of a client's file name; storage keys never derive from it. */
export function displayName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '').replace(/\s+/g, ' ').trim();
  return clean.slice(0, 200) || 'untitled';
}

/** Where one multipart file field goes. */
export interface FileSpec {
  key: string;
  maxBytes: number;
  /** what the file is, for messages ('video', 'subtitle file') */
  label?: string;
  /** the field may be left out (at most once still) */
  optional?: boolean;
}

/**
 * Streams the one file of a multipart request straight into object storage under `key`
 * (memory stays bounded by the multipart part size whatever the file size). Rejects with
 * 413 past `maxBytes`, 400 when the field is missing or repeated, 415 when the body is not
 * multipart. On any failure the partial object is removed.
 */
export async function receiveSingleFile(req: IncomingMessage, storage: ObjectStorage, o: { field: string; key: string; maxBytes: number }): Promise<ReceivedFile> {
  const files = await receiveFiles(req, storage, { [o.field]: { key: o.key, maxBytes: o.maxBytes } });
  return files[o.field]!;
}

/** The answer when object storage fails while an upload is stored. */
export const STORAGE_UNAVAILABLE_MESSAGE = 'The file could not be stored right now. Please try again in a moment.';

/**
 * Streams every file field of a multipart request into object storage, each under its own
 * generated key, as the parts arrive (never buffered whole). Every field in `specs` is
 * required exactly once (an `optional` one at most once); anything else in the body is refused. On any failure, every object
 * this request wrote is removed before the promise rejects: a failed upload leaves nothing.
 */
export function receiveFiles(req: IncomingMessage, storage: ObjectStorage, specs: Record<string, FileSpec>): Promise<Partial<Record<string, ReceivedFile>>> {
  const fields = Object.keys(specs);
  const fieldList = fields.map((f) => `'${f}'`).join(' and ');
  return new Promise<Partial<Record<string, ReceivedFile>>>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: fields.length, fileSize: Math.max(...fields.map((f) => specs[f]!.maxBytes)) + 1, fields: 20, parts: 40 } });
    } catch {
      reject(new AppError(415, ErrorCode.UnsupportedMedia, 'Send the files as multipart/form-data.'));
      return;
    }
    const abort = new AbortController();
    const uploads = new Map<string, Promise<ReceivedFile>>();
    let failure: AppError | undefined;
    let settled = false;

    const cleanup = async () => {
      await Promise.all([...uploads.values()].map((u) => u.catch(() => undefined)));
      await Promise.all(fields.map((f) => storage.delete(specs[f]!.key).catch(() => undefined)));
    };
    /** Answers once: on success after busboy is done, on failure at once (the rest of the body is drained). */
    const finish = async () => {
      if (settled) return;
      settled = true;
      try {
        const missing = fields.filter((f) => !uploads.has(f) && !specs[f]!.optional);
        if (!failure && missing.length) {
          failure = new AppError(400, ErrorCode.ValidationFailed, fields.length === 1 ? `Attach a file in the form field ${fieldList}.` : `Attach both files: form fields ${fieldList} (missing: ${missing.join(', ')}).`);
        }
        if (failure) throw failure;
        const out: Partial<Record<string, ReceivedFile>> = {};
        for (const f of fields) {
          if (!uploads.has(f)) continue;
          const file = await uploads.get(f)!;
          if (file.sizeBytes === 0) throw new AppError(400, ErrorCode.ValidationFailed, `The ${specs[f]!.label ?? 'file'} is empty.`);
          out[f] = file;
        }
        resolve(out);
      } catch (err) {
        await cleanup();
        // storage that fails under the upload is the service's trouble, not the request's
        reject(failure ?? (err instanceof AppError ? err : Object.assign(new AppError(503, ErrorCode.ServiceUnavailable, STORAGE_UNAVAILABLE_MESSAGE), { cause: err })));
      }
    };
    const fail = (e: AppError) => {
      failure ??= e;
      abort.abort();
      req.unpipe(bb);
      req.resume();
      void finish();
    };

    bb.on('file', (name, stream, info) => {
      const spec = specs[name];
      if (!spec || uploads.has(name)) {
        stream.resume();
        fail(new AppError(400, ErrorCode.ValidationFailed, `Send exactly one file in each of the form fields ${fieldList}.`));
        return;
      }
      let received = 0;
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > spec.maxBytes) {
          stream.resume();
          fail(new AppError(413, ErrorCode.PayloadTooLarge, `The ${spec.label ?? 'file'} is larger than the limit of ${formatBytes(spec.maxBytes)}.`));
        }
      });
      stream.on('limit', () => {
        stream.resume();
        fail(new AppError(413, ErrorCode.PayloadTooLarge, `The ${spec.label ?? 'file'} is larger than the limit of ${formatBytes(spec.maxBytes)}.`));
      });
      const upload = storage
        .upload(spec.key, stream, { contentType: 'application/octet-stream', signal: abort.signal })
        .then((r) => ({ key: r.key, sizeBytes: r.sizeBytes, originalName: displayName(info.filename), declaredType: info.mimeType }));
      // awaited in finish(); marked handled now so an early abort is not an unhandled rejection
      upload.catch(() => undefined);
      uploads.set(name, upload);
    });
    bb.on('filesLimit', () => fail(new AppError(400, ErrorCode.ValidationFailed, `Send exactly one file in each of the form fields ${fieldList}.`)));
    bb.on('error', (err) => fail(new AppError(400, ErrorCode.ValidationFailed, `The upload could not be read: ${(err as Error).message}`)));
    req.on('aborted', () => fail(new AppError(400, ErrorCode.ValidationFailed, 'The upload was interrupted.')));
    bb.on('close', () => void finish());
    req.pipe(bb);
  });
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}
