/**
 * The multipart body of a transcription request (OpenAI's `POST /v1/audio/transcriptions`), read
 * with busboy and bounded: the one `file` is written to disk (at most MAX_AUDIO_BYTES), the other
 * fields are small strings. Failures are OpenAiErrors, answered in OpenAI's error shape.
 */
import { createWriteStream } from 'node:fs';
import type http from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { sendJson } from './http';

/** OpenAI's limit is 25 MB; the sandbox takes a little more. */
export const MAX_AUDIO_BYTES = 30 * 1024 * 1024;
/** Each form field other than the file. */
export const MAX_FIELD_BYTES = 16 * 1024;
/** The whole body: the file, the fields and the multipart framing. */
const MAX_BODY_BYTES = MAX_AUDIO_BYTES + 1024 * 1024;

/** An answer in OpenAI's error shape `{ error: { message, type, param, code } }`. */
export class OpenAiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly param: string | null = null,
    readonly type: string = status >= 500 ? 'server_error' : 'invalid_request_error',
  ) {
    super(message);
  }
}

export function sendOpenAiError(res: http.ServerResponse, e: OpenAiError): void {
  sendJson(res, e.status, { error: { message: e.message, type: e.type, param: e.param, code: e.code } });
}

export interface TranscriptionForm {
  /** every field but the file, repeated ones (`timestamp_granularities[]`) in order */
  fields: Map<string, string[]>;
  file: { path: string; filename: string; bytes: number } | null;
}

const tooLarge = (): OpenAiError => new OpenAiError(413, `Maximum content size limit (${MAX_AUDIO_BYTES}) exceeded: the audio file must be at most ${MAX_AUDIO_BYTES / 1024 / 1024} MB.`, 'file_too_large', 'file');

/**
 * Reads the form from `body` (the request's pieces, counted by the sandbox's log); the file goes to
 * `<dir>/upload`. Refuses what is not multipart, a second file or a file field not named `file`, a
 * file over MAX_AUDIO_BYTES (413), fields over MAX_FIELD_BYTES, more than 32 parts.
 */
export async function readTranscriptionForm(req: http.IncomingMessage, body: AsyncIterable<Buffer>, dir: string): Promise<TranscriptionForm> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: MAX_AUDIO_BYTES, fields: 31, parts: 32, fieldSize: MAX_FIELD_BYTES, fieldNameSize: 100 } });
  } catch {
    throw new OpenAiError(400, "The body must be multipart/form-data with the audio in the field 'file'.", 'invalid_multipart');
  }
  const form: TranscriptionForm = { fields: new Map(), file: null };
  let failure: OpenAiError | null = null;
  const fail = (e: OpenAiError): void => {
    failure ??= e;
  };
  let writing: Promise<void> = Promise.resolve();

  bb.on('file', (name, stream, info) => {
    if (name !== 'file' || form.file) {
      stream.resume();
      return fail(new OpenAiError(400, `Send one audio file, in the field 'file' (got a file in '${name}').`, 'invalid_multipart', name));
    }
    const file = { path: join(dir, 'upload'), filename: info.filename ?? '', bytes: 0 };
    form.file = file;
    stream.on('data', (piece: Buffer) => (file.bytes += piece.length));
    stream.on('limit', () => fail(tooLarge()));
    writing = pipeline(stream, createWriteStream(file.path));
    writing.catch(() => undefined);
  });
  bb.on('field', (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) return fail(new OpenAiError(400, `The field '${name}' is longer than ${MAX_FIELD_BYTES} bytes.`, 'invalid_value', name));
    form.fields.set(name, [...(form.fields.get(name) ?? []), value]);
  });
  bb.on('filesLimit', () => fail(new OpenAiError(400, "Send one audio file, in the field 'file'.", 'invalid_multipart', 'file')));
  bb.on('fieldsLimit', () => fail(new OpenAiError(400, 'The form has too many fields.', 'invalid_multipart')));
  bb.on('partsLimit', () => fail(new OpenAiError(400, 'The form has too many parts.', 'invalid_multipart')));

  const done = new Promise<void>((resolve) => {
    bb.once('close', resolve);
    bb.on('error', (err) => {
      fail(new OpenAiError(400, `The multipart body could not be read: ${(err as Error).message}`, 'invalid_multipart'));
      resolve();
    });
  });
  let size = 0;
  for await (const piece of body) {
    size += piece.length;
    if (size > MAX_BODY_BYTES) {
      bb.destroy();
      throw tooLarge();
    }
    if (bb.destroyed) break;
    if (!bb.write(piece)) await Promise.race([new Promise((r) => bb.once('drain', r)), done]);
  }
  if (!bb.destroyed) bb.end();
  await done;
  await writing.catch((err: unknown) => fail(new OpenAiError(500, `The audio could not be stored: ${(err as Error).message}`, null)));
  if (failure) throw failure;
  return form;
}
