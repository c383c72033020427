/**
 * Checks the Helm chart and the kustomize base offline (docs/DEPLOYMENT.md, "Checking the chart"):
 * renders the chart with the value sets a platform team switches between, validates the values
 * against values.schema.json and every object against the Kubernetes API schemas, asserts what a
 * platform team relies on, does the same for the base, and compares the base with the chart's
 * defaults (k8s/check-sync.py). Prints each problem; exit 1 when there is one.
 *
 *   npx tsx tools/helm/check.ts [--chart <dir>] [--base <dir>]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATS_SERVICES, natsAuthorizationConf, natsPermissions, type NatsService } from '../../libs/messaging/src/permissions';
import {
  apiSchemaErrors,
  BASE,
  CHART,
  containersOf,
  mergedValues,
  podSpecOf,
  renderChart,
  renderChartText,
  renderKustomizeBase,
  ROOT,
  toYamlStream,
  valuesSchemaErrors,
  type K8sObject,
  type RenderOptions,
} from './manifests';

interface Case extends RenderOptions {
  name: string;
}

const EXISTING_SECRET = 'secrets.existingSecret=wordcut-secrets';

export function cases(chart: string): Case[] {
  const test = join(chart, 'ci', 'test-values.yaml');
  return [
    { name: 'defaults with an existing Secret', set: [EXISTING_SECRET] },
    { name: 'ci/test-values.yaml', values: [test] },
    { name: 'ci/full-values.yaml', values: [join(chart, 'ci', 'full-values.yaml')] },
    { name: 'KEDA instead of the HPA', values: [test], set: ['media.autoscaling.keda.enabled=true', 'media.autoscaling.keda.natsMonitoringEndpoint=nats.nats.svc:8222'] },
    { name: 'no ingress, no network policies', values: [test], set: ['ingress.enabled=false', 'networkPolicy.enabled=false'] },
    { name: 'bundled MinIO', values: [test], set: ['minio.enabled=true'] },
    { name: 'ServiceMonitor, PrometheusRule and scrape annotations', values: [test], set: ['metrics.serviceMonitor.enabled=true', 'metrics.prometheusRule.enabled=true', 'metrics.scrapeAnnotations=true'] },
    { name: "transcription on, its key in the chart's Secret", values: [test], set: ['config.transcription.url=https://api.openai.com/v1', 'secrets.transcriptionApiKey=ci-placeholder-transcription-key'] },
  ].map((c) => ({ ...c, chart }));
}

const SECRET_NAME = /PASSWORD|SECRET|TOKEN|DATABASE_URL|ACCESS_KEY|PRIVATE_KEY|API_KEY/i;
const SERVICES = ['gateway', 'media', 'jobs', 'export', 'analytics'];
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job', 'DaemonSet']);
const LONG_RUNNING = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** What a platform team relies on, object by object: the problems found. */
export function platformProblems(objects: readonly K8sObject[], where: string, o: { helmHooks: boolean }): string[] {
  const problems: string[] = [];
  const say = (obj: K8sObject, text: string) => problems.push(`${where}: ${obj.kind}/${obj.metadata.name}: ${text}`);
  for (const obj of objects) {
    if (obj.kind === 'ConfigMap') {
      for (const key of Object.keys((obj['data'] as Record<string, string> | undefined) ?? {})) if (SECRET_NAME.test(key)) say(obj, `a ConfigMap holds the secret ${key}`);
    }
    if (!WORKLOADS.has(obj.kind)) continue;
    const pod = podSpecOf(obj)!;
    const podNonRoot = (pod['securityContext'] as { runAsNonRoot?: boolean } | undefined)?.runAsNonRoot === true;
    for (const c of containersOf(obj)) {
      const name = String(c['name']);
      const resources = (c['resources'] ?? {}) as { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
      if (!resources.requests?.['cpu'] || !resources.requests?.['memory']) say(obj, `container ${name} has no CPU and memory requests`);
      if (!resources.limits?.['memory']) say(obj, `container ${name} has no memory limit`);
      const sc = (c['securityContext'] ?? {}) as { runAsNonRoot?: boolean; readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
      if (!podNonRoot && sc.runAsNonRoot !== true) say(obj, `container ${name} may run as root`);
      if (sc.readOnlyRootFilesystem !== true) say(obj, `container ${name} has a writable root file system`);
      if (sc.allowPrivilegeEscalation !== false) say(obj, `container ${name} may escalate privileges`);
      for (const env of (c['env'] as Array<{ name: string; value?: unknown }> | undefined) ?? []) {
        if (SECRET_NAME.test(env.name) && env.value !== undefined && env.value !== '') say(obj, `container ${name} has the secret ${env.name} as a literal value`);
      }
      const isInit = ((pod['initContainers'] as unknown[] | undefined) ?? []).includes(c);
      if (LONG_RUNNING.has(obj.kind) && !isInit) {
        for (const probe of ['readinessProbe', 'livenessProbe']) if (!c[probe]) say(obj, `container ${name} has no ${probe}`);
        const component = obj.metadata.labels?.['app.kubernetes.io/component'] ?? '';
        if (SERVICES.includes(component)) {
          const path = (c['readinessProbe'] as { httpGet?: { path?: string } } | undefined)?.httpGet?.path;
          if (path !== '/healthz') say(obj, `container ${name} is not probed on /healthz (readiness: ${path ?? 'none'})`);
        }
      }
    }
  }
  // the media workers scale on the render and ingest consumers' lag (KEDA), or at least on CPU
  const scaled = objects.find((x) => x.kind === 'ScaledObject');
  if (scaled) {
    const triggers = ((scaled['spec'] as { triggers?: Array<{ type: string; metadata?: Record<string, string> }> }).triggers ?? []).filter((t) => t.type === 'nats-jetstream');
    for (const consumer of ['media-render', 'media-ingest']) {
      if (!triggers.some((t) => t.metadata?.['consumer'] === consumer)) say(scaled, `does not scale on the ${consumer} consumer's lag`);
    }
  } else if (objects.some((x) => x.kind === 'Deployment' && x.metadata.labels?.['app.kubernetes.io/component'] === 'media')) {
    const hpa = objects.find((x) => x.kind === 'HorizontalPodAutoscaler');
    if (!hpa) problems.push(`${where}: the media workers have no autoscaler`);
  }
  const migrate = objects.filter((x) => x.kind === 'Job');
  if (migrate.length === 0) problems.push(`${where}: no migration Job`);
  if (o.helmHooks) {
    for (const job of migrate) {
      const hook = job.metadata.annotations?.['helm.sh/hook'] ?? '';
      if (!hook.includes('pre-install') || !hook.includes('pre-upgrade')) say(job, 'the migrations do not run before the Deployments (pre-install, pre-upgrade hook)');
    }
  }
  return problems;
}

/** Every NetworkPolicy egress rule that names ports also names its peers: never any address on a port. */
export function egressProblems(objects: readonly K8sObject[], where: string): string[] {
  const out: string[] = [];
  for (const obj of objects.filter((o) => o.kind === 'NetworkPolicy')) {
    const egress = ((obj['spec'] as { egress?: Array<{ ports?: unknown[]; to?: unknown[] }> }).egress ?? []);
    egress.forEach((rule, i) => {
      if ((rule.ports?.length ?? 0) > 0 && (rule.to?.length ?? 0) === 0) out.push(`${where}: NetworkPolicy/${obj.metadata.name}: egress rule ${i} allows any address on its ports (no peers)`);
    });
  }
  return out;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

/** The users of a rendered nats-users configuration: name, password variable and allow-lists. */
export function natsUsersOf(conf: string): Array<{ user: string; password: string; publish: string[]; subscribe: string[] }> {
  const quoted = (block: string) => [...block.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  return [...conf.matchAll(/user:\s*"([^"]+)"\s*password:\s*\$(\w+)[\s\S]*?publish:\s*\{\s*allow:\s*\[([\s\S]*?)\]\s*\}[\s\S]*?subscribe:\s*\{\s*allow:\s*\[([\s\S]*?)\]\s*\}/g)].map((m) => ({
    user: m[1]!,
    password: m[2]!,
    publish: quoted(m[3]!),
    subscribe: quoted(m[4]!),
  }));
}

/**
 * With NATS users (config.nats.auth userPassword) each service logs in as its own user with its own
 * password key, and the NATS users' configuration gives that user exactly the permissions of
 * libs/messaging's NATS_USE in the release's namespace.
 */
export function natsUserProblems(objects: readonly K8sObject[], where: string): string[] {
  const out: string[] = [];
  const envOf = (svc: string) => {
    const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] === svc);
    return d ? ((containersOf(d)[0]?.['env'] as EnvVar[] | undefined) ?? []) : null;
  };
  const envs = NATS_SERVICES.map((svc) => ({ svc, env: envOf(svc) })).filter((x): x is { svc: NatsService; env: EnvVar[] } => x.env !== null);
  if (envs.length === 0 || envs.every(({ env }) => !env.some((e) => e.name === 'NATS_USER'))) return out;
  const config = objects.find((o) => o.kind === 'ConfigMap' && /-config$/.test(o.metadata.name) && (o['data'] as Record<string, string> | undefined)?.['NATS_NAMESPACE']);
  const ns = (config?.['data'] as Record<string, string> | undefined)?.['NATS_NAMESPACE'] ?? 'wordcut';
  const usersMap = objects.find((o) => o.kind === 'ConfigMap' && /-nats-users$/.test(o.metadata.name));
  const users = natsUsersOf(((usersMap?.['data'] as Record<string, string> | undefined) ?? {})['wordcut-users.conf'] ?? '');
  if (!usersMap) out.push(`${where}: no NATS users ConfigMap (<release>-nats-users)`);
  const seenUsers = new Map<string, string>();
  const seenKeys = new Map<string, string>();
  for (const { svc, env } of envs) {
    const user = env.find((e) => e.name === 'NATS_USER')?.value;
    const key = env.find((e) => e.name === 'NATS_PASSWORD')?.valueFrom?.secretKeyRef?.key;
    if (!user || !key) {
      out.push(`${where}: ${svc} has no NATS user of its own (NATS_USER and NATS_PASSWORD from a Secret)`);
      continue;
    }
    if (seenUsers.has(user)) out.push(`${where}: ${svc} shares the NATS user ${user} with ${seenUsers.get(user)}`);
    if (seenKeys.has(key)) out.push(`${where}: ${svc} shares the NATS password key ${key} with ${seenKeys.get(key)}`);
    seenUsers.set(user, svc);
    seenKeys.set(key, svc);
    if (!usersMap) continue;
    const u = users.find((x) => x.user === user);
    if (!u) {
      out.push(`${where}: the NATS users configuration has no user ${user} (${svc})`);
      continue;
    }
    const want = natsPermissions(svc, ns);
    const same = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
    if (!same(u.publish, want.publish.allow)) out.push(`${where}: NATS user ${user} may publish other subjects than ${svc} uses (libs/messaging/src/permissions.ts)`);
    if (!same(u.subscribe, want.subscribe.allow)) out.push(`${where}: NATS user ${user} may subscribe to other subjects than ${svc} uses (libs/messaging/src/permissions.ts)`);
  }
  return out;
}

/** values.yaml holds no secret: every secret value is empty by default. */
export function secretDefaults(values: { secrets?: Record<string, unknown> }): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(values.secrets ?? {})) {
    if (key === 'keys' || key === 'existingSecret') continue;
    // a map of secrets (one NATS password per service): each one empty
    const entries = typeof value === 'string' ? [[key, value] as const] : value && typeof value === 'object' ? Object.entries(value).map(([k, v]) => [`${key}.${k}`, v] as const) : [];
    for (const [name, v] of entries) if (v !== '') out.push(`values.yaml: secrets.${name} has a default value`);
  }
  return out;
}

export async function checkChart(chart = CHART, base = BASE): Promise<string[]> {
  const problems: string[] = [];
  // a chart without secrets or an existing Secret must refuse to render, saying what is missing
  const bare = renderChartText({ chart });
  if (bare.ok) problems.push('defaults without any secret: the chart rendered instead of refusing');
  else if (!/secrets\.existingSecret/.test(bare.error)) problems.push(`defaults without any secret: unclear refusal: ${bare.error}`);
  problems.push(...secretDefaults(mergedValues({ chart }) as { secrets?: Record<string, unknown> }));
  // an ingress in front of a gateway that trusts only loopback must refuse, naming config.trustProxy
  const loopbackOnly = renderChartText({ chart, values: [join(chart, 'ci', 'test-values.yaml')], set: ['config.trustProxy=loopback'] });
  if (loopbackOnly.ok) problems.push('ingress with config.trustProxy loopback only: the chart rendered instead of refusing');
  else if (!/config\.trustProxy/.test(loopbackOnly.error)) problems.push(`ingress with config.trustProxy loopback only: unclear refusal: ${loopbackOnly.error}`);

  let defaults: K8sObject[] = [];
  for (const c of cases(chart)) {
    for (const e of valuesSchemaErrors(mergedValues(c), chart)) problems.push(`${c.name}: values: ${e}`);
    let objects: K8sObject[];
    try {
      objects = renderChart(c);
    } catch (err) {
      problems.push(`${c.name}: does not render: ${(err as Error).message}`);
      continue;
    }
    if (c.set?.includes(EXISTING_SECRET) && !c.values) defaults = objects;
    for (const obj of objects) for (const e of await apiSchemaErrors(obj)) problems.push(`${c.name}: ${e}`);
    problems.push(...platformProblems(objects, c.name, { helmHooks: true }));
    problems.push(...egressProblems(objects, c.name), ...natsUserProblems(objects, c.name));
  }

  // docker compose's NATS users are libs/messaging's too
  const composeUsers = readFileSync(join(ROOT, 'docker', 'nats', 'wordcut-users.conf'), 'utf8');
  if (!composeUsers.endsWith(natsAuthorizationConf('wordcut'))) problems.push('docker/nats/wordcut-users.conf differs from natsAuthorizationConf of libs/messaging/src/permissions.ts (npx tsx tools/helm/write-nats-users.ts writes it)');

  const baseObjects = renderKustomizeBase(base);
  for (const obj of baseObjects) for (const e of await apiSchemaErrors(obj)) problems.push(`k8s/base: ${e}`);
  problems.push(...platformProblems(baseObjects, 'k8s/base', { helmHooks: false }));
  problems.push(...egressProblems(baseObjects, 'k8s/base'), ...natsUserProblems(baseObjects, 'k8s/base'));

  // the base is the chart's defaults as plain manifests
  if (defaults.length > 0) {
    const dir = mkdtempSync(join(tmpdir(), 'wordcut-check-sync-'));
    try {
      writeFileSync(join(dir, 'chart.yaml'), toYamlStream(defaults));
      writeFileSync(join(dir, 'base.yaml'), toYamlStream(baseObjects));
      const sync = spawnSync('python3', [join(ROOT, 'k8s', 'check-sync.py'), join(dir, 'chart.yaml'), join(dir, 'base.yaml')], { encoding: 'utf8' });
      if (sync.status !== 0) problems.push(`k8s/base differs from the chart's defaults:\n${(sync.stdout + sync.stderr).trim()}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return problems;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string, dflt: string) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] ? argv[i + 1]! : dflt;
  };
  const problems = await checkChart(opt('--chart', CHART), opt('--base', BASE));
  if (problems.length > 0) {
    process.stdout.write(`chart check: ${problems.length} problem(s)\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`chart check: ok (${cases(CHART).length} value sets and k8s/base rendered, validated and compared)\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`chart check failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
