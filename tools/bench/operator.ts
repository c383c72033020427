/**
 * Section 15: the operators' dashboard under a full library. Targets: `GET /api/analytics/videos`
 * p95 < 100 ms with 10,000 videos; `GET /api/metrics` p95 < 200 ms.
 *
 * Set-up: a throw-away database and NATS namespace, every service's migrations, the analytics,
 * export and gateway services (the figures ask the first two over NATS), 10,000 videos of 100
 * owners (four statuses, sizes up to 3 GB) with 10,000 clips, and 20,000 job events in the
 * analytics schema. One operator session.
 *
 * Measured, one request at a time after a warm-up, client latency (keep-alive, to the last byte):
 * - the video list as the page asks it: the first page (newest), a search, a status filter with
 *   size sort, an owner filter, page 250 of 20, and 100 per page; each `requests` times, interleaved;
 * - the obvious alternative for the list in the same run: read every video row and its clip count
 *   (one query each, as an ORM's eager load would), filter, sort and page in the process;
 * - `GET /api/metrics` (JetStream consumer figures, the analytics and export services' answers) and
 *   `GET /api/analytics/lambda-metrics?periodMinutes=60` over the 20,000 events.
 */
import { Client } from 'pg';
import { LOCAL_ANALYTICS_PASSWORD, ServiceProcess, withGatewayDefaults } from '../stack/stack';
import { operatorLogin } from '../testing/operator';
import { checkInterrupted, freePort, onCleanup, percentile, round } from './common';
import { HttpClient } from './http-load';
import { benchEnv } from './stack';

export interface OperatorLatency {
  label: string;
  p50Ms: number;
  p95Ms: number;
}

export interface OperatorResults {
  videos: number;
  events: number;
  requests: number;
  list: OperatorLatency[];
  listAll: OperatorLatency;
  alternative: OperatorLatency;
  metrics: OperatorLatency;
  workers: OperatorLatency;
  setupSec: number;
  sectionSec: number;
}

const VIDEOS = 10_000;
const OWNERS = 100;
const EVENTS = 20_000;

const LIST_QUERIES: Array<[string, string]> = [
  ['first page, newest', '/api/analytics/videos'],
  ['search "talk 12"', '/api/analytics/videos?search=talk%2012'],
  ['completed, largest first', '/api/analytics/videos?status=completed&sortBy=size-desc'],
  ['one owner, name A-Z', '/api/analytics/videos?userId=owner-7&sortBy=name-asc'],
  ['page 250 of 20', '/api/analytics/videos?page=250'],
  ['100 per page', '/api/analytics/videos?limit=100&sortBy=oldest'],
];

export async function benchOperator(o: { s3Endpoint: string; requests: number; log: (line: string) => void }): Promise<OperatorResults> {
  const t0 = performance.now();
  const { env, db } = await benchEnv({ s3Endpoint: o.s3Endpoint, namespacePrefix: 'bench_op_', migrate: 'all' });
  const services: ServiceProcess[] = [];
  for (const name of ['analytics', 'export'] as const) {
    const p = new ServiceProcess(name, await freePort(), { ...process.env, LOG_LEVEL: 'warn', ...env });
    onCleanup(`the ${name} service`, () => p.stop());
    p.start();
    services.push(p);
  }
  const gateway = new ServiceProcess('gateway', await freePort(), withGatewayDefaults({ ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'warn', ...env }));
  onCleanup('the gateway', () => gateway.stop());
  gateway.start();
  for (const p of [...services, gateway]) await p.waitHealthy(60_000);
  checkInterrupted();

  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  onCleanup('the benchmark database connection', () => pg.end());
  o.log(`  15: writing ${VIDEOS} videos, ${VIDEOS} clips and ${EVENTS} job events`);
  await pg.query(
    `INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, duration, file_size, owner_id, created_at)
     SELECT gen_random_uuid(), 'Talk ' || i, 'talk ' || i || '.mp4', 'talk.mp4',
            (ARRAY['uploaded','processing','completed','failed'])[1 + i % 4], 'VTT Upload', 'en',
            30 + i % 3600, (i::bigint * 2654435761) % 3000000000, CASE WHEN i % 50 = 0 THEN NULL ELSE 'owner-' || (i % $2) END,
            now() - make_interval(secs => i * 60)
     FROM generate_series(1, $1) AS i`,
    [VIDEOS, OWNERS],
  );
  await pg.query(
    `INSERT INTO library.clips (id, video_id, name, start_time, end_time, aspect_ratio, status, job_id, output_key, vtt_key)
     SELECT gen_random_uuid(), id, 'Clip', 0, 10, '9:16', 'completed', 'clip_' || id, 'videos/' || id || '/clips/c.mp4', 'videos/' || id || '/clips/c.vtt' FROM library.videos`,
  );
  await pg.query(
    `INSERT INTO analytics.job_events (event_id, subject, job_id, payload)
     SELECT 'e' || i, (ARRAY['jobs.requested.x','jobs.events.started','jobs.events.completed','jobs.events.failed'])[1 + i % 4], 'cut_' || (i / 4),
            jsonb_build_object('jobId', 'cut_' || (i / 4), 'at', now() - make_interval(secs => (i / 4) * 0.5 + (i % 4)), 'requestedAt', now() - make_interval(secs => (i / 4) * 0.5), 'error', 'ffmpeg exited with code 1')
     FROM generate_series(1, $1) AS i`,
    [EVENTS],
  );
  await pg.query('ANALYZE');
  const operator = await operatorLogin(gateway.url, LOCAL_ANALYTICS_PASSWORD);
  const http = new HttpClient(gateway.url, 4);
  const setupSec = round((performance.now() - t0) / 1000);

  const time = async (path: string): Promise<number> => {
    const r = await http.request('GET', path, { headers: operator.headers });
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${r.body.toString().slice(0, 200)}`);
    return r.ms;
  };
  const summary = (label: string, ms: number[]): OperatorLatency => ({ label, p50Ms: round(percentile(ms, 50), 1), p95Ms: round(percentile(ms, 95), 1) });

  for (const [, path] of LIST_QUERIES) for (let i = 0; i < 5; i++) await time(path);
  const listTimes = LIST_QUERIES.map(() => [] as number[]);
  for (let i = 0; i < o.requests; i++) {
    checkInterrupted();
    for (const [k, [, path]] of LIST_QUERIES.entries()) listTimes[k]!.push(await time(path));
  }
  const list = LIST_QUERIES.map(([label], k) => summary(label, listTimes[k]!));
  const listAll = summary('all list requests', listTimes.flat());

  // the obvious alternative: load everything, then filter, sort and page in the process
  const naive = async (): Promise<number> => {
    const t = performance.now();
    const rows = (await pg.query(`SELECT * FROM library.videos`)).rows as Array<{ id: string; status: string; file_size: string; created_at: Date }>;
    const clips = (await pg.query(`SELECT video_id, count(*)::int AS n FROM library.clips GROUP BY video_id`)).rows as Array<{ video_id: string; n: number }>;
    const clipCount = new Map(clips.map((c) => [c.video_id, c.n]));
    const page = rows
      .filter((r) => r.status === 'completed')
      .sort((a, b) => Number(b.file_size) - Number(a.file_size))
      .slice(0, 20)
      .map((r) => ({ ...r, clipCount: clipCount.get(r.id) ?? 0 }));
    JSON.stringify(page);
    return performance.now() - t;
  };
  for (let i = 0; i < 3; i++) await naive();
  const naiveTimes: number[] = [];
  for (let i = 0; i < Math.min(o.requests, 50); i++) naiveTimes.push(await naive());
  const alternative = summary('load all rows, page in the process', naiveTimes);

  for (let i = 0; i < 5; i++) await time('/api/metrics');
  const metricsTimes: number[] = [];
  const workerTimes: number[] = [];
  for (let i = 0; i < o.requests; i++) {
    checkInterrupted();
    metricsTimes.push(await time('/api/metrics'));
    workerTimes.push(await time('/api/analytics/lambda-metrics?periodMinutes=60'));
  }
  const results: OperatorResults = {
    videos: VIDEOS,
    events: EVENTS,
    requests: o.requests,
    list,
    listAll,
    alternative,
    metrics: summary('GET /api/metrics', metricsTimes),
    workers: summary('GET /api/analytics/lambda-metrics?periodMinutes=60', workerTimes),
    setupSec,
    sectionSec: round((performance.now() - t0) / 1000),
  };
  return results;
}

export function renderOperator(x: OperatorResults, table: (headers: string[], rows: Array<Array<string | number>>) => string): string[] {
  return [
    `15. The operators' dashboard: ${x.videos} videos of ${OWNERS} owners, ${x.events} job events; ${x.requests} requests per query, one at a time`,
    table(
      ['request', 'p50 ms', 'p95 ms'],
      [...x.list, x.listAll, x.alternative, x.metrics, x.workers].map((l) => [l.label, l.p50Ms, l.p95Ms]),
    ),
    `  => the list answers in ${x.listAll.p95Ms} ms at p95 through HTTP; loading every row and paging in the process takes ${x.alternative.p50Ms} ms at p50 before any HTTP`,
    `   section time ${x.sectionSec} s (set-up ${x.setupSec} s)`,
  ];
}
