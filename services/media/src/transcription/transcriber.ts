import type { SpeechAudioFormat } from '@wordcut/ffmpeg';
import { parseTranscriptionAnswer, TranscriptionAnswerError, type TranscriptionAnswer } from '@wordcut/transcript';
import { openAsBlob } from 'node:fs';

/** One file of speech audio to turn into timed words. */
export interface TranscriptionRequest {
  path: string;
  format: SpeechAudioFormat;
  /** the file name the endpoint sees (its extension names the format) */
  fileName: string;
  /** ISO 639-1, when the video's language is known */
  language?: string;
  signal?: AbortSignal;
}

/** A speech-to-text service; OpenAiCompatibleTranscriber is the real one. */
export interface Transcriber {
  /** where it is, for logs (no secrets) */
  readonly endpoint: string;
  transcribe(req: TranscriptionRequest): Promise<TranscriptionAnswer>;
}

/**
 * The service could not transcribe. `permanent`: the same request would fail again (a refused
 * key, a refused file); otherwise (rate limit, 5xx, network, timeout) a later try may succeed.
 */
export class TranscriptionServiceError extends Error {
  override readonly name = 'TranscriptionServiceError';
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface OpenAiTranscriberOptions {
  /** the API base, e.g. `https://api.openai.com/v1`; requests go to `<base>/audio/transcriptions` */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** limit of one request, upload to answer */
  timeoutMs: number;
  /** largest answer read */
  maxAnswerBytes?: number;
  fetch?: typeof fetch;
}

/** Statuses a later try may get past. */
const isTransient = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500;

const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * OpenAI's `POST /v1/audio/transcriptions` (also Groq's, and faster-whisper and whisper.cpp
 * servers that copy it): multipart with the audio, `response_format=verbose_json` and
 * `timestamp_granularities[]=word`, so the answer has word timings.
 */
export class OpenAiCompatibleTranscriber implements Transcriber {
  readonly endpoint: string;
  private readonly url: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly o: OpenAiTranscriberOptions) {
    this.url = `${o.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
    const u = new URL(this.url);
    this.endpoint = `${u.origin}${u.pathname}`;
    this.fetch = o.fetch ?? fetch;
  }

  async transcribe(req: TranscriptionRequest): Promise<TranscriptionAnswer> {
    const form = new FormData();
    form.append('file', await openAsBlob(req.path), req.fileName);
    form.append('model', this.o.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    if (req.language) form.append('language', req.language);
    const signals = [AbortSignal.timeout(this.o.timeoutMs), ...(req.signal ? [req.signal] : [])];
    let res: Response;
    try {
      res = await this.fetch(this.url, {
        method: 'POST',
        body: form,
        headers: this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {},
        signal: AbortSignal.any(signals),
        redirect: 'error',
      });
    } catch (err) {
      throw new TranscriptionServiceError(`The transcription service could not be reached (${(err as Error).name === 'TimeoutError' ? 'no answer in time' : (err as Error).message}).`, false, null, { cause: err });
    }
    const body = await readCapped(res, this.o.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES);
    if (!res.ok) {
      const detail = errorDetail(body);
      throw new TranscriptionServiceError(`The transcription service answered HTTP ${res.status}${detail ? `: ${detail}` : ''}.`, !isTransient(res.status), res.status);
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (err) {
      throw new TranscriptionServiceError('The transcription service answered something that is not JSON.', false, res.status, { cause: err });
    }
    try {
      return parseTranscriptionAnswer(json);
    } catch (err) {
      if (err instanceof TranscriptionAnswerError) throw new TranscriptionServiceError(err.message, true, res.status, { cause: err });
      throw err;
    }
  }
}

/** The body as text, refused past `max` bytes. */
async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new TranscriptionServiceError(`The transcription service's answer is larger than ${max} bytes.`, true, res.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An OpenAI-style `{ error: { message } }` (or `{ error: "..." }`, `{ detail }`) as one short line. */
function errorDetail(body: string): string {
  let text = body;
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    const m = typeof json.error === 'string' ? json.error : typeof json.error?.message === 'string' ? json.error.message : typeof json.detail === 'string' ? json.detail : typeof json.message === 'string' ? json.message : '';
    text = m;
  } catch {
    // not JSON: the text itself
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
