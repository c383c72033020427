/**
 * Fault injection and the request log of the provider sandbox: tests make the provider fail in the
 * ways real networks and providers do (an error status with Retry-After, an answer that never comes,
 * a connection dropped mid-body) and then read what reached it.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { z } from 'zod';

export const faultSpecSchema = z.object({
  match: z.object({
    /** e.g. 'PUT'; any method when absent */
    method: z.string().min(1).optional(),
    /** a regular expression tried on the path, and on the path with its query string */
    path: z.string().min(1),
  }),
  action: z.discriminatedUnion('kind', [
    /** answer this status (after reading the body); JSON `{error:'injected_fault'}` unless `body` is given */
    z.object({ kind: z.literal('status'), status: z.number().int().min(100).max(599), retryAfterSec: z.number().int().nonnegative().optional(), body: z.string().optional() }),
    /** hold the request this long before handling it (longer than the client's timeout: it gives up) */
    z.object({ kind: z.literal('timeout'), ms: z.number().int().nonnegative().max(600_000) }),
    /** destroy the socket after reading this many body bytes (bytes read so far are kept), or at its end */
    z.object({ kind: z.literal('cut'), afterBytes: z.number().int().nonnegative() }),
  ]),
  /** how many matching requests it hits; default 1 */
  times: z.number().int().positive().default(1),
  /** let this many matching requests through first; default 0 */
  skip: z.number().int().nonnegative().default(0),
});
export type FaultSpec = z.input<typeof faultSpecSchema>;
export type FaultAction = z.infer<typeof faultSpecSchema>['action'];
export interface Fault {
  id: string;
  match: { method?: string; path: string };
  action: FaultAction;
  /** hits left */
  times: number;
  /** matching requests still to let through */
  skip: number;
}

export class FaultStore {
  private faults: (Fault & { re: RegExp })[] = [];

  /** Validates and adds a fault; throws a message naming the problem. */
  add(spec: FaultSpec): string {
    const parsed = faultSpecSchema.safeParse(spec);
    if (!parsed.success) throw new Error(`invalid fault: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    let re: RegExp;
    try {
      re = new RegExp(parsed.data.match.path);
    } catch (e) {
      throw new Error(`invalid fault: match.path is not a regular expression (${(e as Error).message})`);
    }
    const id = `fault_${randomUUID()}`;
    this.faults.push({ id, ...parsed.data, re });
    return id;
  }

  /** The first fault matching this request, counted as hit (skips are counted down first). */
  take(method: string, url: URL): Fault | undefined {
    for (const f of this.faults) {
      if (f.match.method && f.match.method.toUpperCase() !== method.toUpperCase()) continue;
      if (!f.re.test(url.pathname) && !f.re.test(url.pathname + url.search)) continue;
      if (f.skip > 0) {
        f.skip -= 1;
        continue;
      }
      f.times -= 1;
      if (f.times <= 0) this.faults = this.faults.filter((x) => x !== f);
      return f;
    }
    return undefined;
  }

  list(): Fault[] {
    return this.faults.map(({ re: _re, ...f }) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}

export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  /** the query string, '' or starting with '?' */
  query: string;
  /** the answer's status; 0 while unanswered, or when the connection ended without an answer */
  status: number;
  /** ISO time the request arrived */
  time: string;
  durationMs: number | null;
  /** request body bytes the sandbox read */
  bytesReceived: number;
  contentRange: string | null;
  /** the injected fault that hit it */
  fault: string | null;
  /** the connection closed before a complete answer */
  aborted: boolean;
}

/** Every request except the control API's, newest last. */
export class RequestLog {
  private entries: { entry: RequestLogEntry; res: http.ServerResponse; started: number }[] = [];
  private seq = 0;

  start(req: http.IncomingMessage, res: http.ServerResponse, url: URL): RequestLogEntry {
    const contentRange = req.headers['content-range'];
    const entry: RequestLogEntry = {
      seq: ++this.seq,
      method: req.method ?? '',
      path: url.pathname,
      query: url.search,
      status: 0,
      time: new Date().toISOString(),
      durationMs: null,
      bytesReceived: 0,
      contentRange: contentRange ?? null,
      fault: null,
      aborted: false,
    };
    const record = { entry, res, started: Date.now() };
    this.entries.push(record);
    res.once('close', () => {
      entry.durationMs = Date.now() - record.started;
      entry.aborted = !res.writableFinished;
      entry.status = res.writableFinished ? res.statusCode : 0;
    });
    return entry;
  }

  /** Copies; an answer already sent shows its status even before the connection event arrives. */
  list(): RequestLogEntry[] {
    return this.entries.map(({ entry, res }) => ({ ...entry, status: entry.status || (res.headersSent && !entry.aborted ? res.statusCode : 0) }));
  }

  clear(): void {
    this.entries = [];
  }
}
