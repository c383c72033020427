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

/**
 * Streams the one file of a multipart request straight into object storage under `key`
 * (memory stays bounded by the multipart part size whatever the file size). Rejects with
 * 413 past `maxBytes`, 400 when the field is missing or repeated, 415 when the body is not
 * multipart. On any failure the partial object is removed.
 */
export function receiveSingleFile(req: IncomingMessage, storage: ObjectStorage, o: { field: string; key: string; maxBytes: number }): Promise<ReceivedFile> {
  return new Promise<ReceivedFile>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: o.maxBytes, fields: 20, parts: 40 } });
    } catch {
      reject(new AppError(415, ErrorCode.UnsupportedMedia, 'Send the file as multipart/form-data.'));
      return;
    }
    const abort = new AbortController();
    let upload: Promise<ReceivedFile> | undefined;
    let failure: AppError | undefined;
    let settled = false;

    /** Answers once: on success after busboy is done, on failure at once (the rest of the body is drained). */
    const finish = async () => {
      if (settled) return;
      settled = true;
      try {
        if (!upload && !failure) failure = new AppError(400, ErrorCode.ValidationFailed, `Attach a file in the form field '${o.field}'.`);
        const file = upload ? await upload : undefined;
        if (failure || !file) throw failure;
        if (file.sizeBytes === 0) throw new AppError(400, ErrorCode.ValidationFailed, 'The file is empty.');
        resolve(file);
      } catch (err) {
        if (upload) await upload.catch(() => undefined);
        await storage.delete(o.key).catch(() => undefined);
        reject(failure ?? err);
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
      if (name !== o.field || upload) {
        stream.resume();
        fail(new AppError(400, ErrorCode.ValidationFailed, `Send exactly one file, in the form field '${o.field}'.`));
        return;
      }
      stream.on('limit', () => {
        stream.resume();
        fail(new AppError(413, ErrorCode.PayloadTooLarge, `The file is larger than the limit of ${formatBytes(o.maxBytes)}.`));
      });
      upload = storage
        .upload(o.key, stream, { contentType: 'application/octet-stream', signal: abort.signal })
        .then((r) => ({ key: r.key, sizeBytes: r.sizeBytes, originalName: displayName(info.filename), declaredType: info.mimeType }));
      // awaited in finish(); marked handled now so an early abort is not an unhandled rejection
      upload.catch(() => undefined);
    });
    bb.on('filesLimit', () => fail(new AppError(400, ErrorCode.ValidationFailed, `Send exactly one file, in the form field '${o.field}'.`)));
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
