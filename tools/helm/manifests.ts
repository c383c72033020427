/**
 * The chart and the kustomize base as the objects they make, offline: the chart rendered by
 * tools/helm-render (Go's text/template with sprig, as Helm renders; built here with Debian's Go
 * toolchain), the base assembled as `kubectl kustomize` would for what it uses (namespace,
 * resources, a ConfigMap from an env file, image tags). Then every object checked against the
 * Kubernetes API schemas (kubernetes-models, and the KEDA and prometheus-operator models for their
 * kinds) and the values against the chart's values.schema.json.
 */
import Ajv from 'ajv';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseAllDocuments, parse as parseYaml, stringify } from 'yaml';

export const ROOT = join(__dirname, '..', '..');
export const CHART = join(ROOT, 'helm', 'wordcut');
export const BASE = join(ROOT, 'k8s', 'base');
const RENDERER_SOURCE = join(ROOT, 'tools', 'helm-render', 'main.go');
const RENDERER = join(ROOT, '.data', 'bin', 'helm-render');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export interface RenderOptions {
  chart?: string;
  values?: string[];
  set?: string[];
}

/** Builds tools/helm-render when it is missing or older than its source (Go from Debian's golang-go, sprig from golang-github-masterminds-sprig-dev). */
export function buildRenderer(): string {
  if (existsSync(RENDERER) && statSync(RENDERER).mtimeMs >= statSync(RENDERER_SOURCE).mtimeMs) return RENDERER;
  mkdirSync(dirname(RENDERER), { recursive: true });
  execFileSync('go', ['build', '-o', RENDERER, './tools/helm-render'], {
    cwd: ROOT,
    env: { ...process.env, GOPATH: '/usr/share/gocode', GO111MODULE: 'off', GOFLAGS: '', GOCACHE: join(ROOT, '.data', 'go-cache') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return RENDERER;
}

const args = (o: RenderOptions): string[] => [...(o.values ?? []).flatMap((f) => ['-f', f]), ...(o.set ?? []).flatMap((s) => ['--set', s]), o.chart ?? CHART];

/** `helm template wordcut <chart> -n wordcut`: the rendered text, or the renderer's error. */
export function renderChartText(o: RenderOptions = {}): { ok: true; text: string } | { ok: false; error: string } {
  const r = spawnSync(buildRenderer(), args(o), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return r.status === 0 ? { ok: true, text: r.stdout } : { ok: false, error: (r.stderr || r.stdout).trim() };
}

export function renderChart(o: RenderOptions = {}): K8sObject[] {
  const r = renderChartText(o);
  if (!r.ok) throw new Error(r.error);
  return parseObjects(r.text);
}

/** The values Helm would check against values.schema.json: values.yaml, the -f files, the --set ones. */
export function mergedValues(o: RenderOptions = {}): unknown {
  return JSON.parse(execFileSync(buildRenderer(), ['--values-json', ...args(o)], { encoding: 'utf8' }));
}

/** The errors of the values against the chart's values.schema.json (empty: valid). */
export function valuesSchemaErrors(values: unknown, chart = CHART): string[] {
  const ajv = new Ajv({ allErrors: true });
  const validate = ajv.compile(JSON.parse(readFileSync(join(chart, 'values.schema.json'), 'utf8')) as object);
  return validate(values) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath || '/'} ${e.message ?? ''}`);
}

export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJSON() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null && typeof o === 'object');
}

interface Kustomization {
  namespace?: string;
  resources?: string[];
  configMapGenerator?: Array<{ name: string; envs?: string[]; options?: { labels?: Record<string, string> } }>;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
}

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PriorityClass', 'StorageClass']);

/**
 * `kubectl kustomize k8s/base` for the features the base uses: its resources with the namespace
 * set, a ConfigMap per generator from its env files (named without kustomize's content hash), and
 * image names/tags replaced in every container.
 */
export function renderKustomizeBase(dir = BASE): K8sObject[] {
  const k = parseYaml(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
  const objects: K8sObject[] = [];
  for (const file of k.resources ?? []) objects.push(...parseObjects(readFileSync(join(dir, file), 'utf8')));
  for (const g of k.configMapGenerator ?? []) {
    const data: Record<string, string> = {};
    for (const env of g.envs ?? []) {
      for (const line of readFileSync(join(dir, env), 'utf8').split('\n')) {
        const t = line.trim();
        if (!t || t.startsWith('#')) continue;
        const eq = t.indexOf('=');
        data[t.slice(0, eq)] = t.slice(eq + 1);
      }
    }
    objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: g.name, ...(g.options?.labels ? { labels: g.options.labels } : {}) }, data });
  }
  for (const o of objects) {
    if (k.namespace && !CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
    for (const c of containersOf(o)) {
      const image = String(c['image'] ?? '');
      const [name] = image.split(':');
      const rule = (k.images ?? []).find((i) => i.name === name);
      if (rule) c['image'] = `${rule.newName ?? name}:${rule.newTag ?? image.split(':')[1] ?? 'latest'}`;
    }
  }
  return objects;
}

export function toYamlStream(objects: readonly K8sObject[]): string {
  return objects.map((o) => `---\n${stringify(o)}`).join('');
}

/** The pod template of a workload (Deployment, StatefulSet, Job), or null. */
export function podSpecOf(o: K8sObject): Record<string, unknown> | null {
  const spec = o['spec'] as { template?: { spec?: Record<string, unknown> } } | undefined;
  return spec?.template?.spec ?? null;
}

export function containersOf(o: K8sObject): Array<Record<string, unknown>> {
  const pod = podSpecOf(o);
  if (!pod) return [];
  return [...((pod['initContainers'] as Array<Record<string, unknown>> | undefined) ?? []), ...((pod['containers'] as Array<Record<string, unknown>> | undefined) ?? [])];
}

const MODEL_PACKAGES: Array<[RegExp, string]> = [
  [/^keda\.sh\//, '@kubernetes-models/keda'],
  [/^monitoring\.coreos\.com\//, '@kubernetes-models/prometheus-operator'],
];

/**
 * The object checked against its kind's API schema: the errors (empty: valid), or that we know no
 * schema for its kind. The model packages are ES modules: run this under tsx (tools/helm/check.ts).
 */
export async function apiSchemaErrors(o: K8sObject): Promise<string[]> {
  const pkg = MODEL_PACKAGES.find(([re]) => re.test(o.apiVersion))?.[1] ?? 'kubernetes-models';
  const path = `${pkg}/${o.apiVersion}`;
  let models: Record<string, new (data: unknown) => { validate(): void }>;
  try {
    models = (await import(path)) as typeof models;
  } catch {
    return [`no API schema for ${o.apiVersion}`];
  }
  const Model = models[o.kind];
  if (!Model) return [`no API schema for ${o.apiVersion} ${o.kind}`];
  try {
    new Model(o).validate();
    return [];
  } catch (err) {
    return [`${o.kind}/${o.metadata?.name}: ${(err as Error).message}`];
  }
}
