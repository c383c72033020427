/**
 * The chart check (tools/helm/check.ts) on the real chart and base, and on broken copies of them: a
 * template that does not parse, values that break the schema, an object the Kubernetes API would refuse, a container without
 * limits or probes, a secret in the ConfigMap, an egress rule without peers, services sharing a NATS user
 * and a base that drifted from the chart all fail it. Then what the chart renders of
 * config.transcription: the URL to the gateway and the media workers, the rest and the optional key
 * to the media workers only, nothing on by default.
 * Needs Debian's golang-go and golang-github-masterminds-sprig-dev (setup.sh installs them).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, CHART, containersOf, mergedValues, renderChart, ROOT, valuesSchemaErrors, type K8sObject, type RenderOptions } from './manifests';

function check(args: string[] = []): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'tools', 'helm', 'check.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the chart check', () => {
  let dir: string;
  let chart: string;
  let base: string;
  const edit = (file: string, from: string | RegExp, to: string) => {
    const text = readFileSync(file, 'utf8');
    const next = text.replace(from, to);
    expect(next).not.toBe(text);
    writeFileSync(file, next);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wordcut-chart-'));
    chart = join(dir, 'wordcut');
    base = join(dir, 'base');
    cpSync(CHART, chart, { recursive: true });
    cpSync(BASE, base, { recursive: true });
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('passes on the chart and the base as they are', () => {
    const r = check();
    expect(r.out).toContain('chart check: ok');
    expect(r.status).toBe(0);
  });

  it('fails on a template that does not parse', () => {
    edit(join(chart, 'templates', 'services.yaml'), '{{- end }}', '{{- end ');
    const r = check(['--chart', chart, '--base', base]);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/does not render: .*services\.yaml/);
  });

  it('fails on an object the Kubernetes API would refuse', () => {
    edit(join(chart, 'templates', 'services.yaml'), /containerPort: \{\{ \$c\.port \| int \}\}/, 'containerPort: "port-{{ $c.port }}"');
    const r = check(['--chart', chart, '--base', base]);
    expect(r.status).toBe(1);
    expect(r.out).toContain('Deployment/wordcut-gateway: data/spec/template/spec/containers/0/ports/0/containerPort must be integer');
  });

  it('fails on a container without a memory limit or probes, and on a secret in the ConfigMap', () => {
    edit(join(chart, 'templates', 'services.yaml'), /readinessProbe:/, 'startupProbe:');
    writeFileSync(join(chart, 'ci', 'test-values.yaml'), `${readFileSync(join(chart, 'ci', 'test-values.yaml'), 'utf8')}\njobs:\n  resources:\n    limits: null\n`);
    edit(join(chart, 'templates', 'configmap.yaml'), /^data:/m, 'data:\n  NATS_PASSWORD: "oops"');
    const r = check(['--chart', chart, '--base', base]);
    expect(r.status).toBe(1);
    expect(r.out).toContain('ci/test-values.yaml: Deployment/wordcut-jobs: container jobs has no memory limit');
    expect(r.out).toContain('Deployment/wordcut-gateway: container gateway has no readinessProbe');
    expect(r.out).toContain('ConfigMap/wordcut-config: a ConfigMap holds the secret NATS_PASSWORD');
  });

  it('fails on values that break values.schema.json', () => {
    writeFileSync(join(chart, 'ci', 'full-values.yaml'), `${readFileSync(join(chart, 'ci', 'full-values.yaml'), 'utf8')}\ngateway:\n  replicaCount: lots\n`);
    const r = check(['--chart', chart, '--base', base]);
    expect(r.status).toBe(1);
    expect(r.out).toContain('ci/full-values.yaml: values: .gateway.replicaCount should be integer');
  });

  it('fails on an egress rule with ports but no peers, and on services sharing one NATS user', () => {
    edit(join(base, 'networkpolicy.yaml'), /( {8}- port: 4222\n {10}protocol: TCP\n) {6}to:\n {8}- namespaceSelector: \{\}\n/, '$1');
    edit(join(chart, 'templates', '_helpers.tpl'), '{{- printf "%s-%s" .root.Values.config.nats.userPrefix .svc }}', '{{- .root.Values.config.nats.userPrefix }}');
    const r = check(['--chart', chart, '--base', base]);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/k8s\/base: NetworkPolicy\/wordcut-\w+: egress rule \d allows any address on its ports \(no peers\)/);
    expect(r.out).toContain('defaults with an existing Secret: media shares the NATS user wordcut with gateway');
  });

  it('fails when the base drifts from the chart’s defaults', () => {
    edit(join(base, 'jobs.yaml'), /replicas: 2/, 'replicas: 3');
    const r = check(['--chart', chart, '--base', base]);
    expect(r.status).toBe(1);
    expect(r.out).toContain("k8s/base differs from the chart's defaults");
  });
});

describe("the chart's transcription settings", () => {
  interface EnvVar {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }
  const TEST_VALUES = join(CHART, 'ci', 'test-values.yaml');
  const ON = ['config.transcription.url=https://api.openai.com/v1', 'secrets.transcriptionApiKey=ci-placeholder-transcription-key'];
  const envOf = (objects: readonly K8sObject[], component: string): EnvVar[] => {
    const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] === component);
    expect(d).toBeDefined();
    return (containersOf(d!)[0]?.['env'] as EnvVar[] | undefined) ?? [];
  };
  const find = (env: readonly EnvVar[], name: string) => env.filter((e) => e.name === name);
  const policyOf = (objects: readonly K8sObject[], component: string) =>
    objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === `wordcut-${component}`)!['spec'] as { egress: Array<{ to?: unknown[]; ports?: Array<{ port: number | string }> }> };

  it('gives the media workers the URL, the settings and the key from the Secret, and the gateway the URL alone', () => {
    const objects = renderChart({ values: [TEST_VALUES], set: ON });
    const media = envOf(objects, 'media');
    expect(find(media, 'TRANSCRIPTION_URL')).toEqual([{ name: 'TRANSCRIPTION_URL', value: 'https://api.openai.com/v1' }]);
    expect(find(media, 'TRANSCRIPTION_MODEL')).toEqual([{ name: 'TRANSCRIPTION_MODEL', value: 'whisper-1' }]);
    expect(Object.fromEntries(media.filter((e) => /^TRANSCRIPTION_(AUDIO|CHUNK|OVERLAP|MAX|TIMEOUT)/.test(e.name)).map((e) => [e.name, e.value]))).toEqual({
      TRANSCRIPTION_AUDIO_FORMAT: 'mp3',
      TRANSCRIPTION_CHUNK_SECONDS: '600',
      TRANSCRIPTION_OVERLAP_SECONDS: '5',
      TRANSCRIPTION_MAX_FILE_MB: '24',
      TRANSCRIPTION_TIMEOUT_MS: '600000',
    });
    expect(find(media, 'TRANSCRIPTION_API_KEY')).toEqual([{ name: 'TRANSCRIPTION_API_KEY', valueFrom: { secretKeyRef: { name: 'wordcut-secrets', key: 'TRANSCRIPTION_API_KEY', optional: true } } }]);
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'wordcut-secrets')!;
    expect((secret['stringData'] as Record<string, string>)['TRANSCRIPTION_API_KEY']).toBe('ci-placeholder-transcription-key');

    const gateway = envOf(objects, 'gateway');
    expect(find(gateway, 'TRANSCRIPTION_URL')).toEqual([{ name: 'TRANSCRIPTION_URL', value: 'https://api.openai.com/v1' }]);
    expect(gateway.filter((e) => e.name.startsWith('TRANSCRIPTION_') && e.name !== 'TRANSCRIPTION_URL')).toEqual([]);
    expect(gateway.filter((e) => e.valueFrom?.secretKeyRef?.key === 'TRANSCRIPTION_API_KEY')).toEqual([]);
    for (const svc of ['jobs', 'export', 'analytics']) expect({ svc, env: envOf(objects, svc).filter((e) => e.name.startsWith('TRANSCRIPTION_')) }).toEqual({ svc, env: [] });
    // the shared ConfigMap (every service's envFrom) holds none of it
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'wordcut-config')!;
    expect(Object.keys(config['data'] as Record<string, string>).filter((k) => k.startsWith('TRANSCRIPTION_'))).toEqual([]);

    // the media workers, and only they, may reach the service (networkPolicy.transcription: public addresses on 443)
    const transcriptionRule = (component: string) => policyOf(objects, component).egress.filter((r) => JSON.stringify(r) === JSON.stringify({ ports: [{ port: 443, protocol: 'TCP' }], to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8'] } }] }));
    expect(transcriptionRule('media')).toHaveLength(2); // the provider's and the transcription service's
    expect(transcriptionRule('gateway')).toHaveLength(1); // the provider's
  });

  it.each<[string, RenderOptions]>([
    ['the defaults with an existing Secret', { set: ['secrets.existingSecret=wordcut-secrets'] }],
    ['ci/test-values.yaml', { values: [TEST_VALUES] }],
  ])('is off with %s: no TRANSCRIPTION_URL with a value, no key in the Secret, no egress to a transcription service', (_name, o) => {
    const objects = renderChart(o);
    for (const svc of ['gateway', 'media']) {
      const urls = find(envOf(objects, svc), 'TRANSCRIPTION_URL');
      expect({ svc, urls }).toEqual({ svc, urls: [{ name: 'TRANSCRIPTION_URL', value: '' }] });
    }
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'wordcut-secrets');
    expect(Object.keys((secret?.['stringData'] as Record<string, string> | undefined) ?? {})).not.toContain('TRANSCRIPTION_API_KEY');
    // the media workers' egress: DNS, NATS, S3 and the provider, nothing more
    expect(policyOf(objects, 'media').egress).toHaveLength(4);
  });

  it('narrows the egress to networkPolicy.transcription, and refuses a rule without peers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wordcut-transcription-'));
    try {
      const narrowed = join(dir, 'narrowed.yaml');
      writeFileSync(narrowed, 'networkPolicy:\n  transcription:\n    cidrs: [198.51.100.0/24]\n');
      const objects = renderChart({ values: [TEST_VALUES, narrowed], set: [ON[0]!] });
      expect(policyOf(objects, 'media').egress.filter((r) => JSON.stringify(r.to) === JSON.stringify([{ ipBlock: { cidr: '198.51.100.0/24' } }]))).toEqual([{ ports: [{ port: 443, protocol: 'TCP' }], to: [{ ipBlock: { cidr: '198.51.100.0/24' } }] }]);
      expect(valuesSchemaErrors(mergedValues({ values: [TEST_VALUES, narrowed], set: [ON[0]!] }))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => renderChart({ values: [TEST_VALUES], set: [ON[0]!, 'networkPolicy.transcription.to=null'] })).toThrow(/networkPolicy\.transcription: set cidrs/);
  });

  it.each([
    ['config.transcription.url=ftp://stt.example.com/v1', '.config.transcription.url should match pattern "^(https?://.+)?$"'],
    ['config.transcription.model=', '.config.transcription.model should NOT be shorter than 1 characters'],
    ['config.transcription.audioFormat=ogg', '.config.transcription.audioFormat should be equal to one of the allowed values'],
    ['config.transcription.chunkSeconds=20', '.config.transcription.chunkSeconds should be >= 30'],
    ['config.transcription.chunkSeconds=4000', '.config.transcription.chunkSeconds should be <= 3600'],
    ['config.transcription.overlapSeconds=31', '.config.transcription.overlapSeconds should be <= 30'],
    ['config.transcription.maxFileMb=0', '.config.transcription.maxFileMb should be >= 1'],
    ['config.transcription.maxFileMb=2048', '.config.transcription.maxFileMb should be <= 1024'],
    ['config.transcription.timeoutMs=999', '.config.transcription.timeoutMs should be >= 1000'],
  ])('refuses %s in values.schema.json', (set, error) => {
    expect(valuesSchemaErrors(mergedValues({ values: [TEST_VALUES], set: [set] }))).toEqual([error]);
  });
});
