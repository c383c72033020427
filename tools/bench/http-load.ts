/**
 * A light HTTP/1.1 client for the benchmark's request latencies: node:http over keep-alive
 * connections (one per concurrent client), the whole body read, latency from the call to the
 * last byte. Light on purpose: it shares the 2 cores with the servers it measures.
 */
import http from 'node:http';
import { percentile, round } from './common';

export interface HttpResult {
  status: number;
  body: Buffer;
  ms: number;
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, maxSockets = 64) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  request(method: string, path: string, o: { json?: unknown; headers?: Record<string, string> } = {}): Promise<HttpResult> {
    const payload = o.json === undefined ? undefined : Buffer.from(JSON.stringify(o.json));
    const headers: Record<string, string | number> = { ...(o.headers ?? {}) };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request({ host: this.base.hostname, port: this.base.port, method, path, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Throws unless the answer has the expected status; returns the parsed JSON body. */
export function expectJson<T>(r: HttpResult, status: number, what: string): T {
  if (r.status !== status) throw new Error(`${what} answered ${r.status} (expected ${status}): ${r.body.toString('utf8').slice(0, 300)}`);
  return JSON.parse(r.body.toString('utf8')) as T;
}

export interface LatencySummary {
  requests: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** requests per second over the measured wall time (for concurrent runs) */
  perSec: number;
  wallSec: number;
}

export function summarizeLatency(ms: readonly number[], wallMs: number): LatencySummary {
  return {
    requests: ms.length,
    p50Ms: round(percentile(ms, 50)),
    p95Ms: round(percentile(ms, 95)),
    maxMs: round(Math.max(...ms)),
    perSec: round(ms.length / (wallMs / 1000)),
    wallSec: round(wallMs / 1000, 2),
  };
}

/**
 * A closed loop: `clients` clients each send `perClient` requests one after another (the next as
 * soon as the previous answered, no think time), all clients at once. `send` does one request of
 * one client and returns its latency in ms. Resolves with every latency and the wall time.
 */
export async function closedLoop(clients: number, perClient: number, send: (client: number, i: number) => Promise<number>): Promise<{ ms: number[]; wallMs: number }> {
  const ms: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < perClient; i++) ms.push(await send(c, i));
    }),
  );
  return { ms, wallMs: performance.now() - t0 };
}

/**
 * Paced clients: `clients` clients each send `perClient` requests, pausing after every answer for a
 * think time drawn uniformly from [0.5, 1.5] x `meanThinkMs` (a person editing), each starting at a
 * random moment within the first mean think time so that they do not move in step. The offered
 * load is about clients / (meanThinkMs + latency) requests per second.
 */
export async function pacedLoop(
  clients: number,
  perClient: number,
  meanThinkMs: number,
  rng: () => number,
  send: (client: number, i: number) => Promise<number>,
): Promise<{ ms: number[]; wallMs: number }> {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const ms: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      await sleep(rng() * meanThinkMs);
      for (let i = 0; i < perClient; i++) {
        ms.push(await send(c, i));
        if (i < perClient - 1) await sleep((0.5 + rng()) * meanThinkMs);
      }
    }),
  );
  return { ms, wallMs: performance.now() - t0 };
}
