/**
 * SSRF-guarded HTTP(S) GET for importing the media a provider token names (video, VTT, word-by-word
 * JSON). The URLs come from a token the browser handed us, so every one is treated as hostile:
 *
 * - only http/https, no credentials in the URL, host (and port) on the allow-list;
 * - the host is resolved once and refused if ANY address is not public unicast (loopback, private,
 *   link-local, unique-local, CGNAT, multicast, IPv4-mapped private, ...), unless the host is in
 *   `trustedPrivateHosts` (dev/test only);
 * - the connection is pinned to the checked address (custom `lookup`), so a second DNS answer
 *   cannot swap in another address between check and connect (DNS rebinding);
 * - redirects are followed by hand, at most `maxRedirects`, and every hop is checked again;
 * - non-2xx answers fail; the body is size-limited while it streams; idle sockets time out.
 *
 * Error messages name the host only: never the path, query string or credentials.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { classifyAddress, hostMatches, isIpLiteral, parseHostPattern, type HostPattern } from './address-policy';

export type UnsafeUrlCode = 'URL_INVALID' | 'HOST_NOT_ALLOWED' | 'PRIVATE_ADDRESS' | 'TOO_MANY_REDIRECTS';
export type FetchFailedCode = 'HTTP_ERROR' | 'TIMEOUT' | 'TOO_LARGE' | 'NETWORK';

/** The URL (or a redirect hop) may not be fetched; nothing was sent to the refused address. */
export class UnsafeUrlError extends Error {
  override readonly name = 'UnsafeUrlError';
  constructor(
    readonly code: UnsafeUrlCode,
    message: string,
  ) {
    super(message);
  }
}

/** The fetch was allowed but did not succeed. */
export class FetchFailedError extends Error {
  override readonly name = 'FetchFailedError';
  constructor(
    readonly code: FetchFailedCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface SafeFetcherOptions {
  /** 'host', 'host:port' or '*.example.com' (any subdomain); an entry without a port allows any port */
  allowedHosts: string[];
  /** dev/test only: allow-listed hosts that may resolve to loopback/private addresses */
  trustedPrivateHosts?: string[];
  /** default 5 */
  maxRedirects?: number;
  /** socket idle timeout (connect, headers, and between body chunks), ms; default 30 000 */
  timeoutMs?: number;
  /** body size limit, bytes; default 5 GiB */
  maxBytes?: number;
  userAgent?: string;
}

export interface SafeFetchResult {
  body: Readable;
  contentType: string | null;
  contentLength: number | null;
  /** the URL that answered, after redirects */
  finalUrl: string;
}

/** A resolved address, as dns.lookup gives it. */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/** Where a checked URL will connect: the checked addresses (undefined for IP-literal hosts). */
interface CheckedTarget {
  url: URL;
  pinned?: PinnedAddress[];
}

/** One request/response; `body` is set once the response is handed to the caller. */
interface Exchange {
  req: http.ClientRequest;
  res: http.IncomingMessage;
  body?: Transform;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_BYTES = 5 * 1024 ** 3;

export class SafeFetcher {
  private readonly allowed: HostPattern[];
  private readonly trusted: HostPattern[];
  private readonly maxRedirects: number;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly userAgent: string;

  constructor(o: SafeFetcherOptions) {
    this.allowed = o.allowedHosts.map(parseHostPattern);
    this.trusted = (o.trustedPrivateHosts ?? []).map(parseHostPattern);
    this.maxRedirects = o.maxRedirects ?? 5;
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.maxBytes = o.maxBytes ?? DEFAULT_MAX_BYTES;
    this.userAgent = o.userAgent ?? 'WordCut-MediaImport/1.0';
  }

  /** GETs the URL, following checked redirects; resolves once a 2xx answer's headers arrived. */
  async get(url: string, o: { signal?: AbortSignal } = {}): Promise<SafeFetchResult> {
    let current = parseUrl(url);
    for (let redirects = 0; ; redirects++) {
      const target = await this.check(current);
      const exchange = await this.request(target, o.signal);
      const { res } = exchange;
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        res.destroy();
        if (redirects >= this.maxRedirects) {
          throw new UnsafeUrlError(
            'TOO_MANY_REDIRECTS',
            `The media server at ${current.host} redirected more than ${this.maxRedirects} times.`,
          );
        }
        current = parseUrl(location, current);
        continue;
      }
      if (status < 200 || status > 299) {
        res.destroy();
        throw new FetchFailedError('HTTP_ERROR', `The media server at ${current.host} answered HTTP ${status}.`, status);
      }
      return this.wrapBody(current, exchange);
    }
  }

  /** Applies every rule to one URL (the first or a redirect hop) and resolves the address to pin. */
  private async check(url: URL): Promise<CheckedTarget> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UnsafeUrlError('URL_INVALID', `Only http and https media URLs can be imported (got ${url.protocol.replace(/:$/, '')}).`);
    }
    if (url.username || url.password) {
      throw new UnsafeUrlError('URL_INVALID', `Media URLs must not carry credentials (host ${url.host}).`);
    }
    if (!hostMatches(url, this.allowed)) {
      throw new UnsafeUrlError('HOST_NOT_ALLOWED', `Importing media from ${url.host} is not allowed.`);
    }
    const trusted = hostMatches(url, this.trusted);
    if (isIpLiteral(url.hostname)) {
      if (!trusted) refuseIfPrivate(url, [url.hostname]);
      return { url };
    }
    let resolved: { address: string; family: number }[];
    try {
      resolved = await dnsLookup(url.hostname, { all: true, verbatim: true });
    } catch {
      throw new FetchFailedError('NETWORK', `The media host ${url.hostname} could not be resolved.`);
    }
    if (resolved.length === 0) throw new FetchFailedError('NETWORK', `The media host ${url.hostname} has no address.`);
    if (!trusted) refuseIfPrivate(url, resolved.map((r) => r.address));
    return { url, pinned: resolved.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 })) };
  }

  private request(target: CheckedTarget, signal?: AbortSignal): Promise<Exchange> {
    const { url } = target;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request({
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { 'user-agent': this.userAgent, accept: '*/*', 'accept-encoding': 'identity' },
        agent: false,
        ...(target.pinned ? { lookup: pinnedLookup(target.pinned) } : {}),
        ...(signal ? { signal } : {}),
      });
      const exchange: Partial<Exchange> = { req };
      // before the answer: reject; once the body is handed out: fail the body stream
      const fail = (err: Error): void => {
        if (exchange.body) exchange.body.destroy(err);
        else reject(err);
      };
      req.setTimeout(this.timeoutMs, () => {
        const err = new FetchFailedError('TIMEOUT', `The media server at ${url.host} stalled for more than ${this.timeoutMs} ms.`);
        fail(err);
        req.destroy(err);
      });
      req.on('error', (e) => fail(mapRequestError(e, url)));
      req.once('response', (res) => {
        exchange.res = res;
        res.on('error', (e) => fail(mapRequestError(e, url)));
        res.on('aborted', () => fail(new FetchFailedError('NETWORK', `The media server at ${url.host} closed the connection early.`)));
        resolve(exchange as Exchange);
      });
      req.end();
    });
  }

  /** The 2xx body, size-limited; later timeouts and network failures surface on it. */
  private wrapBody(url: URL, exchange: Exchange): SafeFetchResult {
    const { res } = exchange;
    const header = res.headers['content-length'];
    const contentLength = header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
    if (contentLength !== null && contentLength > this.maxBytes) {
      res.destroy();
      throw tooLarge(url, this.maxBytes);
    }
    let received = 0;
    const maxBytes = this.maxBytes;
    const body = new Transform({
      transform(chunk: Buffer, _enc, callback) {
        received += chunk.length;
        if (received > maxBytes) callback(tooLarge(url, maxBytes));
        else callback(null, chunk);
      },
    });
    exchange.body = body;
    body.on('close', () => {
      if (!res.complete) res.destroy();
    });
    res.pipe(body);
    return { body, contentType: res.headers['content-type'] ?? null, contentLength, finalUrl: url.toString() };
  }
}

/**
 * A `lookup` for http(s).request that answers every query with the addresses we already checked,
 * so the socket connects exactly there: no second DNS answer can slip in (TLS still verifies the
 * certificate against the hostname). With `all` (Node's happy eyeballs) it offers every checked
 * address, otherwise the first.
 */
export function pinnedLookup(addresses: readonly PinnedAddress[]): LookupFunction {
  if (addresses.length === 0) throw new Error('pinnedLookup needs at least one address');
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses.map((a) => ({ ...a })));
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/** Throws PRIVATE_ADDRESS when any of the host's addresses is not public. */
export function refuseIfPrivate(url: URL, addresses: readonly string[]): void {
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.public) {
      throw new UnsafeUrlError(
        'PRIVATE_ADDRESS',
        `Importing media from ${url.host} is not allowed: it resolves to a ${verdict.range} address.`,
      );
    }
  }
}

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new UnsafeUrlError(
      'URL_INVALID',
      base ? `The media server at ${base.host} redirected to an invalid URL.` : 'The media URL is not a valid URL.',
    );
  }
}

function tooLarge(url: URL, maxBytes: number): FetchFailedError {
  return new FetchFailedError('TOO_LARGE', `The media file at ${url.host} is larger than the ${maxBytes}-byte limit.`);
}

function mapRequestError(e: unknown, url: URL): Error {
  if (e instanceof FetchFailedError || e instanceof UnsafeUrlError) return e;
  // the caller's abort stays an AbortError (duck-typed: node's errors may come from another realm)
  if ((e as { name?: unknown } | null)?.name === 'AbortError') return e as Error;
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return new FetchFailedError('NETWORK', `The media server at ${url.host} could not be reached${code ? ` (${code})` : ''}.`);
}
