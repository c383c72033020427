/** Small HTTP helpers of the provider sandbox: errors, JSON answers, request bodies. */
import type http from 'node:http';

/** One path segment a client may name (an id or a file): no slashes, no leading dot. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** An answer other than success. With a `code` it is sent as JSON `{ error: code, message }`, else as text. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly headers: http.OutgoingHttpHeaders = {},
  ) {
    super(message);
  }
}

/** Thrown into a handler reading a body whose connection the sandbox cut on purpose. */
export class ConnectionCut extends Error {
  constructor() {
    super('connection cut by an injected fault');
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
}

export function sendError(res: http.ServerResponse, e: unknown): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const status = e instanceof HttpError ? e.status : 500;
  const headers = e instanceof HttpError ? e.headers : {};
  const message = (e as Error).message;
  if (e instanceof HttpError && e.code) sendJson(res, status, { error: e.code, message }, headers);
  else res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(`${message}\n`);
}

export function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(302, { location }).end();
}

/**
 * The request body as pieces, counted into `onBytes`. With `cutAfter`, the socket is destroyed once
 * that many bytes were handed to the reader (who has processed them: a generator resumes only when
 * asked for more), or when the body ends before that; the reader then gets a ConnectionCut.
 */
export async function* bodyOf(req: http.IncomingMessage, onBytes: (n: number) => void, cutAfter?: number): AsyncGenerator<Buffer> {
  let seen = 0;
  const cut = (): never => {
    req.socket.destroy();
    throw new ConnectionCut();
  };
  if (cutAfter === 0) cut();
  for await (const piece of req as AsyncIterable<Buffer>) {
    if (cutAfter !== undefined && seen + piece.length >= cutAfter) {
      const head = piece.subarray(0, cutAfter - seen);
      seen += head.length;
      onBytes(head.length);
      if (head.length > 0) yield head;
      cut();
    }
    seen += piece.length;
    onBytes(piece.length);
    yield piece;
  }
  if (cutAfter !== undefined) cut();
}

/** Reads and forgets a body. */
export async function drain(body: AsyncIterable<Buffer>): Promise<void> {
  for await (const _ of body) {
    // discard
  }
}

/** Reads a small JSON body (limit 64 KiB). */
export async function readJson(body: AsyncIterable<Buffer>): Promise<unknown> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of body) {
    size += piece.length;
    if (size > 64 * 1024) throw new HttpError(413, 'the JSON body is larger than 64 KiB', 'too_large');
    pieces.push(piece);
  }
  try {
    return JSON.parse(Buffer.concat(pieces).toString('utf8') || 'null');
  } catch {
    throw new HttpError(400, 'the body is not JSON', 'bad_request');
  }
}

export function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
