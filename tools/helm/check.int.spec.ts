/**
 * The chart check (tools/helm/check.ts) on the real chart and base, and on broken copies of them: a
 * template that does not parse, values that break the schema, an object the Kubernetes API would refuse, a container without
 * limits or probes, a secret in the ConfigMap, an egress rule without peers, services sharing a NATS user
 * and a base that drifted from the chart all fail it.
 * Needs Debian's golang-go and golang-github-masterminds-sprig-dev (setup.sh installs them).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, CHART, ROOT } from './manifests';

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
