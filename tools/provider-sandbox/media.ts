/** The provider's media directory over HTTP: safe file names, the index page, files with byte ranges. */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type http from 'node:http';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { escapeHtml, HttpError, SAFE_NAME } from './http';
import { parseRange } from './range';

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.vtt': 'text/vtt; charset=utf-8',
  '.json': 'application/json',
};

export async function serveMedia(req: http.IncomingMessage, res: http.ServerResponse, mediaDir: string, rawName: string): Promise<void> {
  const name = safeMediaName(rawName);
  await serveFile(req, res, join(mediaDir, name), CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream');
}

/** A file with single byte ranges (206) and HEAD. */
export async function serveFile(req: http.IncomingMessage, res: http.ServerResponse, path: string, contentType: string): Promise<void> {
  const size = await fileSize(path);
  if (size === null) throw new HttpError(404, 'not found');
  const range = parseRange(req.headers.range, size);
  const headers: http.OutgoingHttpHeaders = { 'content-type': contentType, 'accept-ranges': 'bytes' };
  if (range.kind === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
    return;
  }
  const [status, start, end] = range.kind === 'partial' ? [206, range.start, range.end] : [200, 0, size - 1];
  if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  res.writeHead(status, { ...headers, 'content-length': String(size === 0 ? 0 : end - start + 1) });
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  await pipeline(createReadStream(path, { start, end }), res);
}

/** One safe path segment (no slashes, no leading dot): nothing outside mediaDir can be named. */
export function safeMediaName(rawName: string): string {
  let name: string;
  try {
    name = decodeURIComponent(rawName);
  } catch {
    throw new HttpError(400, 'bad file name');
  }
  if (!SAFE_NAME.test(name)) throw new HttpError(404, 'not found');
  return name;
}

/** The index page: an `/open` link per video of the media directory. */
export async function serveIndex(res: http.ServerResponse, mediaDir: string): Promise<void> {
  const videos = (await readdir(mediaDir).catch(() => [] as string[]))
    .filter((f) => f.endsWith('.mp4'))
    .map((f) => f.slice(0, -4))
    .filter((v) => SAFE_NAME.test(v));
  const items = videos.length
    ? videos.map((v) => `<li><a href="/open?video=${v}">${v}</a> (<a href="/open?video=${v}&amp;plan=free">free plan</a>)</li>`).join('\n')
    : `<li>No .mp4 files in ${escapeHtml(mediaDir)} (run <code>npm run media</code>)</li>`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Provider sandbox</title></head><body>
<h1>Provider sandbox</h1><p>Open a video in WordCut as the provider would:</p>
<ul>
${items}
</ul>
<p>What WordCut published: <a href="/library">the library</a>.</p>
<p><code>POST /v1/audio/transcriptions</code> is not speech recognition: it answers only for audio of media whose script it knows (the .mp4 files here that have captions, such as the demo).</p></body></html>`);
}

/** The size of a regular file; null when there is none. */
export async function fileSize(path: string): Promise<number | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}

export async function isFile(path: string): Promise<boolean> {
  return (await fileSize(path)) !== null;
}
