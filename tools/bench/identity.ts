/**
 * Section 10: what the gateway's identity guard costs per request. Every gateway route but health,
 * metrics, the upload page's settings and POST /api/auth/session needs a bearer token, resolved by
 * one guard (services/gateway/src/auth/identity.guard.ts) before the route runs: a provider session
 * token (ES256, verified against the provider's key set, fetched once and cached) or a gateway
 * session token (HS256, the gateway's own secret). Target: the guard adds under 1 ms (p95).
 *
 * Set-up: the provider sandbox in this process (it signs the provider tokens and serves the key
 * set), the gateway alone (`services/gateway/dist/main.js`, LOG_LEVEL=info for its access log) on a
 * throw-away database with the gateway's migrations, pointed at the sandbox's key set, and two
 * videos of the same 3,000-word synthetic transcript (section 4's data) written with the gateway's
 * stores: one owned by a provider user (`sub`), one by a gateway session (POST /api/auth/session).
 *
 * Measured, each kind the same way:
 * - in-process, the guard itself: `IdentityGuard.canActivate` as the gateway runs it (the compiled
 *   classes from services/gateway/dist, configured from the gateway's own configuration schema
 *   with the same environment, the GET transcript route's handler and class as the metadata
 *   targets), `calls` calls per kind after a warm-up, the kinds alternating in blocks of 100;
 *   and `IdentityResolver.fromBearer` alone (the token verification). Per call, in µs.
 * - through HTTP, what a request costs in all: GET /api/videos/{id}/transcript and PATCH
 *   /api/transcripts/{id} (1-3 word texts, `Prefer: return=minimal`, with the version), `requests`
 *   of each per kind, one at a time, the kinds interleaved, after a warm-up; client latency
 *   (keep-alive, to the last byte) and the gateway's own time (access log `durationMs`, whole ms).
 * The guard's share of a call is its p50 over the call's client p50. Both tokens must resolve to
 * their video's owner, and each kind must be refused the other's video (404).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { providerOwnerId } from '@wordcut/provider';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { startProviderSandbox } from '../provider-sandbox/sandbox';
import type { ServiceProcess } from '../stack/stack';
import { bearer, startGatewaySession } from '../testing/identity';
import { seedVideoWithTranscript } from '../testing/seed-video';
import { BENCH_DIR, checkInterrupted, onCleanup, percentile, round } from './common';
import { HttpClient, expectJson, summarizeLatency } from './http-load';
import { benchEnv, startBenchGateway } from './stack';
import type { ServerTimedSummary } from './transcript';
import { randomTextEdit, seededRandom, syntheticVtt } from './transcript-data';
// the gateway's compiled classes and configuration, as the service runs them
import { loadGatewayConfig } from '../../services/gateway/dist/config.js';
import { gatewayDataSource } from '../../services/gateway/dist/data-source.js';
import { identityFromConfig } from '../../services/gateway/dist/auth/from-config.js';
import { IdentityGuard } from '../../services/gateway/dist/auth/identity.guard.js';
import { VideosController } from '../../services/gateway/dist/library/videos.controller.js';
import { TranscriptStore } from '../../services/gateway/dist/library/transcript-store.js';
import { VideoStore } from '../../services/gateway/dist/library/video-store.js';

export type IdentityKind = 'provider' | 'gateway';

export const IDENTITY_LABELS: Record<IdentityKind, string> = {
  provider: 'provider session token (ES256, key set cached)',
  gateway: 'gateway session token (HS256, upload form)',
};

/** µs per call. */
export interface MicroSummary {
  p50Us: number;
  p95Us: number;
  meanUs: number;
}

export interface IdentityKindFigures {
  kind: IdentityKind;
  label: string;
  /** IdentityGuard.canActivate, in process */
  guard: MicroSummary;
  /** IdentityResolver.fromBearer alone (the token's verification), in process */
  fromBearer: MicroSummary;
  /** GET /api/videos/{id}/transcript through HTTP, with the gateway's own time */
  get: ServerTimedSummary;
  /** PATCH /api/transcripts/{id} (word texts) through HTTP, with the gateway's own time */
  patch: ServerTimedSummary;
  /** guard p50 / client p50 of the call, percent */
  guardShareOfGetPct: number;
  guardShareOfPatchPct: number;
}

export interface IdentityResults {
  words: number;
  /** HTTP requests per call and kind */
  requests: number;
  /** in-process guard calls per kind */
  calls: number;
  warmupCalls: number;
  setupSec: number;
  kinds: IdentityKindFigures[];
  sectionSec: number;
}

export interface IdentityBenchOptions {
  s3Endpoint: string;
  words: number;
  requests: number;
  calls: number;
  log: (line: string) => void;
}

const KINDS: readonly IdentityKind[] = ['provider', 'gateway'];
const BLOCK = 100;

const micro = (us: number[]): MicroSummary => ({
  p50Us: round(percentile(us, 50), 1),
  p95Us: round(percentile(us, 95), 1),
  meanUs: round(us.reduce((a, b) => a + b, 0) / us.length, 1),
});

/**
 * The gateway's own durations (its access log) of the `method` requests logged since line `from`,
 * the last `kinds.length` of `total`, grouped by the kind each was sent as; undefined when they do
 * not all come through within 3 s.
 */
async function accessLogByKind(gateway: ServiceProcess, from: number, method: string, total: number, kinds: IdentityKind[]): Promise<Record<IdentityKind, number[]> | undefined> {
  const until = Date.now() + 3000;
  for (;;) {
    const ms = gateway.lines
      .slice(from)
      .filter((l) => l.msg === 'request' && l['method'] === method)
      .map((l) => Number(l['durationMs']));
    if (ms.length >= total) {
      const mine = ms.slice(total - kinds.length, total);
      const out: Record<IdentityKind, number[]> = { provider: [], gateway: [] };
      mine.forEach((d, i) => out[kinds[i]!].push(d));
      return out;
    }
    if (Date.now() > until) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function benchIdentity(o: IdentityBenchOptions): Promise<IdentityResults> {
  const t0 = performance.now();
  checkInterrupted();
  const sandbox = await startProviderSandbox({ port: 0, host: '127.0.0.1', mediaDir: BENCH_DIR, editorUrl: 'http://127.0.0.1:9' });
  onCleanup('the provider sandbox (identity)', () => sandbox.close());
  const { db, namespace, env: base } = await benchEnv({ s3Endpoint: o.s3Endpoint, namespacePrefix: 'benchid', migrate: 'gateway' });
  // the gateway verifies the sandbox's tokens; its own secret is known here, so the guard built in
  // this process verifies the very session tokens the gateway issues
  const env = {
    ...base,
    PROVIDER_JWKS_URL: sandbox.jwksUrl,
    PROVIDER_JWT_ISSUER: sandbox.issuer,
    PROVIDER_JWT_AUDIENCE: sandbox.audience,
    PROVIDER_API_URL: sandbox.url,
    GATEWAY_SESSION_SECRET: randomBytes(32).toString('hex'),
    LEGACY_UPLOAD_ENABLED: 'true',
  };
  const gateway = await startBenchGateway(env, 'info');

  // ---- the identities and their videos (objects answer only their owner) ----
  const providerUser = 'bench-provider-user';
  const tokens: Record<IdentityKind, string> = {
    provider: await sandbox.signToken({ sub: providerUser, sessionId: `bench-${randomUUID()}`, videoId: 'bench' }, { expiresInSec: 4 * 3600 }),
    gateway: '',
  };
  const session = await startGatewaySession(gateway.url);
  tokens.gateway = session.token;
  const owners: Record<IdentityKind, string> = { provider: providerOwnerId(sandbox.issuer, providerUser), gateway: session.userId };

  const ds = gatewayDataSource(db.url, 2);
  await ds.initialize();
  onCleanup('gateway data source (identity)', () => ds.destroy());
  const videos = new VideoStore(ds);
  const transcripts = new TranscriptStore(ds);
  const built = buildTranscriptFromVtt(syntheticVtt(o.words, 100));
  if (built.words.length !== o.words) throw new Error(`the synthetic transcript has ${built.words.length} words, not ${o.words}`);
  const seeded = {} as Record<IdentityKind, { videoId: string; transcriptId: string; version: number }>;
  for (const kind of KINDS) {
    const { videoId, transcriptId } = await seedVideoWithTranscript({ ds, videos, transcripts }, { ownerId: owners[kind], title: `bench identity (${kind})`, built });
    seeded[kind] = { videoId, transcriptId, version: 1 };
  }
  const setupSec = round((performance.now() - t0) / 1000, 1);
  o.log(`  sandbox, gateway and 2 videos of ${o.words} words up in ${setupSec} s (database ${db.name}, namespace ${namespace})`);

  // ---- in process: the guard as the gateway runs it ----
  const config = loadGatewayConfig(env);
  const { resolver } = identityFromConfig(config);
  const guard = new IdentityGuard(new Reflector(), resolver);
  // the metadata targets of GET /api/videos/{id}/transcript: not public, no export refusals, no signed media
  const handler = VideosController.prototype.transcript;
  const contextFor = (req: object) =>
    ({ getHandler: () => handler, getClass: () => VideosController, switchToHttp: () => ({ getRequest: () => req }) }) as unknown as ExecutionContext;

  const guardOnce = async (kind: IdentityKind): Promise<number> => {
    const req = { headers: { authorization: `Bearer ${tokens[kind]}` }, query: {}, path: `/api/videos/${seeded[kind].videoId}/transcript` } as { identity?: { userId: string } };
    const t = performance.now();
    const ok = await guard.canActivate(contextFor(req));
    const us = (performance.now() - t) * 1000;
    if (!ok || req.identity?.userId !== owners[kind]) throw new Error(`the guard resolved the ${kind} token to ${req.identity?.userId ?? 'nobody'}, not ${owners[kind]}`);
    return us;
  };
  const resolveOnce = async (kind: IdentityKind): Promise<number> => {
    const t = performance.now();
    const identity = await resolver.fromBearer(tokens[kind], false);
    const us = (performance.now() - t) * 1000;
    if (identity.userId !== owners[kind]) throw new Error(`fromBearer resolved the ${kind} token to ${identity.userId}, not ${owners[kind]}`);
    return us;
  };
  const warmupCalls = Math.min(500, Math.max(50, Math.round(o.calls / 10)));
  // blocks of BLOCK calls, the kinds (and the guard and fromBearer) taking turns, so that whatever
  // else the machine does falls on all four alike
  for (let i = 0; i < warmupCalls; i++) {
    for (const kind of KINDS) {
      await guardOnce(kind);
      await resolveOnce(kind);
    }
  }
  const guardUs: Record<IdentityKind, number[]> = { provider: [], gateway: [] };
  const resolveUs: Record<IdentityKind, number[]> = { provider: [], gateway: [] };
  for (let done = 0, block = 0; done < o.calls; done += BLOCK, block++) {
    checkInterrupted();
    const n = Math.min(BLOCK, o.calls - done);
    for (const kind of block % 2 === 0 ? KINDS : [...KINDS].reverse()) {
      for (let i = 0; i < n; i++) guardUs[kind].push(await guardOnce(kind));
      for (let i = 0; i < n; i++) resolveUs[kind].push(await resolveOnce(kind));
    }
  }
  for (const kind of KINDS) {
    const g = micro(guardUs[kind]);
    o.log(`  guard (${kind} token), in process: p50 ${g.p50Us} µs, p95 ${g.p95Us} µs, mean ${g.meanUs} µs over ${o.calls} calls; fromBearer p50 ${micro(resolveUs[kind]).p50Us} µs`);
  }

  // ---- through HTTP: the same calls in all, each kind on its own video ----
  const client = new HttpClient(gateway.url, 4);
  onCleanup('HTTP client (identity)', () => client.close());
  const get = async (kind: IdentityKind, as: IdentityKind = kind) => client.request('GET', `/api/videos/${seeded[kind].videoId}/transcript`, { headers: bearer(tokens[as]) });
  const rng = seededRandom(11);
  const patch = async (kind: IdentityKind): Promise<number> => {
    const s = seeded[kind];
    const r = await client.request('PATCH', `/api/transcripts/${s.transcriptId}`, {
      json: { version: s.version, wordDeltas: randomTextEdit(rng, o.words) },
      headers: { prefer: 'return=minimal', ...bearer(tokens[kind]) },
    });
    s.version = expectJson<{ version: number }>(r, 200, `PATCH (${kind} token)`).version;
    return r.ms;
  };
  // each identity sees its own video and not the other's
  for (const kind of KINDS) {
    const t = expectJson<{ words: unknown[] }>(await get(kind), 200, `GET (${kind} token)`);
    if (t.words.length !== o.words) throw new Error(`GET (${kind} token) answered ${t.words.length} words, not ${o.words}`);
    const other = KINDS.find((k) => k !== kind)!;
    const foreign = await get(other, kind);
    if (foreign.status !== 404) throw new Error(`the ${kind} token read the other identity's transcript: ${foreign.status}`);
  }
  const warmupRequests = 10;
  const run = async (method: 'GET' | 'PATCH'): Promise<Record<IdentityKind, ServerTimedSummary>> => {
    // the access log from here on: the warm-up's requests, then the measured ones in `order`
    const from = gateway.lines.length;
    for (let i = 0; i < warmupRequests; i++) {
      for (const kind of KINDS) {
        if (method === 'GET') expectJson(await get(kind), 200, `GET (${kind} token)`);
        else await patch(kind);
      }
    }
    const ms: Record<IdentityKind, number[]> = { provider: [], gateway: [] };
    const order: IdentityKind[] = [];
    for (let i = 0; i < o.requests; i++) {
      checkInterrupted();
      for (const kind of i % 2 === 0 ? KINDS : [...KINDS].reverse()) {
        if (method === 'GET') {
          const r = await get(kind);
          expectJson(r, 200, `GET (${kind} token)`);
          ms[kind].push(r.ms);
        } else ms[kind].push(await patch(kind));
        order.push(kind);
      }
    }
    const server = await accessLogByKind(gateway, from, method, warmupRequests * KINDS.length + order.length, order);
    const out = {} as Record<IdentityKind, ServerTimedSummary>;
    for (const kind of KINDS) {
      const s: ServerTimedSummary = summarizeLatency(ms[kind], ms[kind].reduce((a, b) => a + b, 0));
      if (server) s.server = { p50Ms: round(percentile(server[kind], 50)), p95Ms: round(percentile(server[kind], 95)) };
      out[kind] = s;
      o.log(`  ${method} ${o.words} words (${kind} token): p50 ${s.p50Ms} ms, p95 ${s.p95Ms} ms${s.server ? `, in gateway p50 ${s.server.p50Ms} ms` : ''}`);
    }
    return out;
  };
  const gets = await run('GET');
  const patches = await run('PATCH');
  client.close();

  const kinds = KINDS.map((kind): IdentityKindFigures => {
    const g = micro(guardUs[kind]);
    return {
      kind,
      label: IDENTITY_LABELS[kind],
      guard: g,
      fromBearer: micro(resolveUs[kind]),
      get: gets[kind],
      patch: patches[kind],
      guardShareOfGetPct: round((g.p50Us / 1000 / gets[kind].p50Ms) * 100, 2),
      guardShareOfPatchPct: round((g.p50Us / 1000 / patches[kind].p50Ms) * 100, 2),
    };
  });
  return { words: o.words, requests: o.requests, calls: o.calls, warmupCalls, setupSec, kinds, sectionSec: round((performance.now() - t0) / 1000, 1) };
}
