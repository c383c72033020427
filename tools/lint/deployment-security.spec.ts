/**
 * The deployment artefacts are not run here (no Docker engine, no cluster, no helm in CI), so their
 * security defaults are guarded by reading them: docker compose requires its secrets and publishes
 * only the web on a non-loopback interface; the Helm chart and the kustomize base keep the legacy
 * upload form off, NetworkPolicies on and resources on every container; the web's nginx sends the
 * security headers on every answer and never logs a query string (the provider's entry link carries
 * `?token=`). See docs/DEPLOYMENT.md.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const parseYaml = <T>(file: string): T => parse(read(file), { merge: true }) as T;
const parseYamlDocs = <T>(file: string): T[] =>
  parseAllDocuments(read(file), { merge: true })
    .map((d) => d.toJSON() as T)
    .filter((d) => d && typeof d === 'object');

interface ComposeService {
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number | { host_ip?: string; target: number | string }>;
  command?: string[];
  network_mode?: string;
}
interface Resources {
  requests?: { cpu?: string; memory?: string };
  limits?: { cpu?: string; memory?: string };
}
interface EgressGroup {
  to?: Array<{ ipBlock?: { cidr: string; except?: string[] } }>;
  ports: Array<{ port: number | string; protocol?: string }>;
}
interface ChartComponent {
  env?: Record<string, unknown>;
  resources?: Resources;
}
interface ChartValues {
  config: { nats: { auth: string }; extraEnv?: Record<string, unknown>; trustProxy?: string };
  secrets: Record<string, unknown> & { keys: Record<string, string> };
  networkPolicy: { enabled: boolean; egress: Record<string, EgressGroup> };
  gateway: ChartComponent & { env: Record<string, string> };
  [component: string]: unknown;
}
interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    template: { metadata: { labels: Record<string, string> }; spec: { containers: Array<{ name: string; env?: Array<{ name: string; value?: string }>; resources?: Resources }> } };
    podSelector: { matchLabels: Record<string, string> };
    policyTypes?: string[];
  };
}

// ------------------------------------------------------------------------------------ compose

const COMPOSE_FILE = 'docker/docker-compose.yml';
const compose = parseYaml<{ services: Record<string, ComposeService> }>(COMPOSE_FILE);
const composeText = read(COMPOSE_FILE);

/** A variable that holds a secret, by its name. */
const SECRET_VAR = /SECRET|PASSWORD|PASSWD|TOKEN|ACCESS_KEY|ROOT_USER|NATS_USER|CREDENTIAL|PRIVATE_KEY/;
/** An environment setting whose value is or contains a secret. */
const SECRET_SETTING = /SECRET|PASSWORD|PASSWD|TOKEN|ACCESS_KEY|ROOT_USER|CREDENTIAL|PRIVATE_KEY|^DATABASE_URL$/;
/** The secrets compose must be given (it refuses to start without each one). */
/** One NATS password per service (each logs in as its own user). */
const NATS_PASSWORDS = ['GATEWAY', 'MEDIA', 'JOBS', 'EXPORT', 'ANALYTICS'].map((s) => `NATS_PASSWORD_${s}`);
const REQUIRED_SECRETS = ['POSTGRES_PASSWORD', 'MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD', ...NATS_PASSWORDS, 'PROVIDER_WEBHOOK_SECRET', 'GATEWAY_SESSION_SECRET'];

interface Interpolation {
  text: string;
  name: string;
  /** '', ':-', '-', ':?', '?', ':+', '+' */
  op: string;
  arg: string;
}

/** Compose interpolations `${NAME}`, `${NAME:-default}`, `${NAME:?message}`, ... of a text (`$$` is a literal `$`). */
function interpolations(text: string): Interpolation[] {
  const found: Interpolation[] = [];
  const re = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}/g;
  for (const m of text.matchAll(re)) {
    if (m[0] === '$$') continue;
    found.push({ text: m[0], name: m[1]!, op: m[2] ?? '', arg: m[3] ?? '' });
  }
  return found;
}

/** A compose value with every interpolation resolved as in an empty environment (required ones named `<NAME>`). */
function resolveDefaults(value: string): string {
  let out = value;
  for (const i of interpolations(value)) {
    const replacement = i.op === ':-' || i.op === '-' ? i.arg : i.op === ':?' || i.op === '?' ? `<${i.name}>` : '';
    out = out.replace(i.text, replacement);
  }
  return out;
}

/** Every environment of every service, as [service, name, value]. */
function composeEnvironment(): Array<[string, string, string]> {
  const rows: Array<[string, string, string]> = [];
  for (const [service, def] of Object.entries(compose.services)) {
    const env = def.environment ?? {};
    const entries: Array<[string, unknown]> = Array.isArray(env)
      ? env.map((line) => {
          const eq = line.indexOf('=');
          return (eq < 0 ? [line, ''] : [line.slice(0, eq), line.slice(eq + 1)]) as [string, unknown];
        })
      : Object.entries(env);
    for (const [name, value] of entries) rows.push([service, name, value == null ? '' : String(value)]);
  }
  return rows;
}

interface PublishedPort {
  service: string;
  spec: string;
  hostIp: string;
  target: number;
}

function publishedPorts(): PublishedPort[] {
  const ports: PublishedPort[] = [];
  for (const [service, def] of Object.entries(compose.services)) {
    for (const p of def.ports ?? []) {
      if (typeof p === 'object') {
        ports.push({ service, spec: JSON.stringify(p), hostIp: resolveDefaults(String(p.host_ip ?? '')), target: Number(resolveDefaults(String(p.target))) });
        continue;
      }
      const spec = String(p);
      const parts = resolveDefaults(spec).replace(/\/(tcp|udp)$/, '').split(':');
      ports.push({ service, spec, hostIp: parts.length === 3 ? parts[0]! : '', target: Number(parts[parts.length - 1]) });
    }
  }
  return ports;
}

describe('docker-compose.yml', () => {
  it('has no default for any secret: every secret variable is required with ${NAME:?message}', () => {
    const secrets = interpolations(composeText).filter((i) => SECRET_VAR.test(i.name));
    expect(secrets.length).toBeGreaterThan(0);
    for (const i of secrets) {
      expect({ interpolation: i.text, required: i.op === ':?' || i.op === '?' }).toEqual({ interpolation: i.text, required: true });
      expect(i.arg.trim()).not.toBe('');
    }
  });

  it.each(REQUIRED_SECRETS)('refuses to start without %s', (name) => {
    const uses = interpolations(composeText).filter((i) => i.name === name);
    expect(uses.length).toBeGreaterThan(0);
    for (const i of uses) expect(i.op).toBe(':?');
  });

  it('takes every secret setting from a required variable, never a literal', () => {
    const settings = composeEnvironment().filter(([, name]) => SECRET_SETTING.test(name));
    expect(settings.map(([, name]) => name)).toEqual(expect.arrayContaining(['PROVIDER_WEBHOOK_SECRET', 'GATEWAY_SESSION_SECRET', 'DATABASE_URL', 'S3_SECRET_ACCESS_KEY', 'NATS_PASSWORD']));
    for (const [service, name, value] of settings) {
      const required = interpolations(value).filter((i) => i.op === ':?');
      expect({ service, name, value, fromRequiredVariable: required.length > 0 }).toEqual({ service, name, value, fromRequiredVariable: true });
    }
  });

  it('gives NATS one user per service, their passwords from required variables', () => {
    const nats = compose.services.nats!;
    expect(nats.command).toEqual(['-c', '/etc/nats/nats.conf']);
    const env = (nats.environment ?? {}) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual([...NATS_PASSWORDS].sort());
    for (const name of NATS_PASSWORDS) expect(interpolations(env[name]!).map((i) => i.op)).toEqual([':?']);
  });

  it('publishes only the web entry on every interface; every other port on 127.0.0.1', () => {
    const ports = publishedPorts();
    expect(ports.some((p) => p.service === 'web' && p.target === 4200)).toBe(true);
    for (const p of ports) {
      const ok = ['127.0.0.1', '::1', '[::1]'].includes(p.hostIp) || (p.service === 'web' && p.target === 4200);
      expect({ service: p.service, port: p.spec, loopbackOrWebEntry: ok }).toEqual({ service: p.service, port: p.spec, loopbackOrWebEntry: true });
    }
    for (const [service, def] of Object.entries(compose.services)) expect({ service, network_mode: def.network_mode }).toEqual({ service, network_mode: undefined });
  });

  it('keeps the legacy upload form off and the upload limit at 2 GiB unless configured', () => {
    const gateway = compose.services.gateway!.environment as Record<string, string>;
    expect(resolveDefaults(String(gateway.LEGACY_UPLOAD_ENABLED))).toBe('false');
    expect(resolveDefaults(String(gateway.UPLOAD_MAX_BYTES))).toBe('2147483648');
    expect(resolveDefaults(String(gateway.RETENTION_DAYS))).toBe('0');
  });

  it("trusts the forwarded client address of loopback and the stack's own network only, which has a fixed subnet", () => {
    const gateway = compose.services.gateway!.environment as Record<string, string>;
    const subnets = (parseYaml<{ networks?: { default?: { ipam?: { config?: Array<{ subnet?: string }> } } } }>(COMPOSE_FILE).networks?.default?.ipam?.config ?? []).map((c) => resolveDefaults(String(c.subnet)));
    expect(subnets).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+\.\d+\/\d+$/)]);
    expect(resolveDefaults(String(gateway.TRUST_PROXY))).toBe(`loopback, ${subnets[0]}`);
  });

  it("gives the migrations the gateway's PROVIDER_JWT_ISSUER", () => {
    const issuer = (service: string) => String((compose.services[service]!.environment as Record<string, string>).PROVIDER_JWT_ISSUER);
    expect(issuer('migrate')).toBe(issuer('gateway'));
  });
});

// ------------------------------------------------------------------------------------ Helm chart

const CHART = 'helm/wordcut';
const values = parseYaml<ChartValues>(`${CHART}/values.yaml`);
const component = (name: string): ChartComponent => values[name] as ChartComponent;
const COMPONENTS = ['gateway', 'media', 'jobs', 'export', 'analytics', 'web'] as const;

/** Every env map of the values (config.extraEnv and each component's env), as [where, map]. */
function valuesEnvMaps(): Array<[string, Record<string, unknown>]> {
  const maps: Array<[string, Record<string, unknown>]> = [['config.extraEnv', values.config.extraEnv ?? {}]];
  for (const c of COMPONENTS) maps.push([`${c}.env`, component(c).env ?? {}]);
  return maps;
}

describe('helm/wordcut values', () => {
  it('keeps the legacy upload form off', () => {
    expect(values.gateway.env.LEGACY_UPLOAD_ENABLED).toBe('false');
    for (const [where, env] of valuesEnvMaps()) {
      if ('LEGACY_UPLOAD_ENABLED' in env) expect({ where, value: String(env.LEGACY_UPLOAD_ENABLED) }).toEqual({ where, value: 'false' });
    }
  });

  it('carries the gateway limits with their defaults', () => {
    expect(values.gateway.env).toMatchObject({
      UPLOAD_MAX_BYTES: '2147483648',
      PROVIDER_JWT_MAX_AGE_SECONDS: '86400',
      MAX_ACTIVE_JOBS_PER_USER: '3',
      UPLOADS_PER_HOUR_PER_USER: '20',
      UPLOADS_PER_HOUR_PER_IP: '30',
      RETENTION_DAYS: '30',
    });
  });

  it('has no default secret value', () => {
    for (const [key, value] of Object.entries(values.secrets)) {
      if (key === 'keys' || key.endsWith('xistingSecret')) continue;
      expect({ key, value }).toEqual({ key, value: '' });
    }
    expect(values.secrets.keys).toMatchObject({ gatewaySessionSecret: 'GATEWAY_SESSION_SECRET', natsPassword: 'NATS_PASSWORD', natsToken: 'NATS_TOKEN' });
  });

  it('authenticates to NATS by default', () => {
    expect(values.config.nats.auth).toBe('userPassword');
  });

  it('enables NetworkPolicies by default, default-deny with explicit allows', () => {
    expect(values.networkPolicy.enabled).toBe(true);
    const template = read(`${CHART}/templates/networkpolicy.yaml`);
    expect(template).toMatch(/name: \{\{ \$fullname \}\}-default-deny/);
    const policyTypes = [...template.matchAll(/^\s*policyTypes:.*$/gm)].map((m) => m[0].trim());
    expect(policyTypes.length).toBeGreaterThanOrEqual(5);
    for (const t of policyTypes) expect(t).toBe('policyTypes: [Ingress, Egress]');
    expect(Object.keys(values.networkPolicy.egress).sort()).toEqual(['dns', 'nats', 'otlp', 'postgres', 'provider', 's3']);
  });

  it("never lets the provider rule reach private, link-local (cloud metadata) or loopback addresses by default", () => {
    const peers = values.networkPolicy.egress.provider!.to ?? [];
    expect(peers.length).toBeGreaterThan(0);
    for (const peer of peers) {
      expect(peer.ipBlock).toBeDefined();
      if (peer.ipBlock!.cidr === '0.0.0.0/0') expect(peer.ipBlock!.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8']));
    }
  });

  it.each([...COMPONENTS, 'migrations', 'minio'])('%s has CPU and memory requests and a memory limit', (c) => {
    const r = component(c).resources;
    expect(r?.requests?.cpu).toBeTruthy();
    expect(r?.requests?.memory).toBeTruthy();
    expect(r?.limits?.memory).toBeTruthy();
  });

  it('renders resources for every container of every template', () => {
    for (const t of ['services.yaml', 'web.yaml', 'migrate-job.yaml', 'minio.yaml']) {
      const text = read(`${CHART}/templates/${t}`);
      const containers = (text.match(/^\s*containers:\s*$/gm) ?? []).length;
      const resources = (text.match(/^\s*resources:\s*$/gm) ?? []).length;
      expect({ t, containers: containers > 0, resourcesPerContainer: resources >= containers }).toEqual({ t, containers: true, resourcesPerContainer: true });
    }
  });

  it('trusts only the loopback hop by default, renders TRUST_PROXY for the gateway and refuses an ingress without its addresses', () => {
    expect(values.config.trustProxy).toBe('loopback');
    expect(read(`${CHART}/templates/services.yaml`)).toMatch(/\{\{- if eq \$name "gateway" \}\}\s+# [^\n]*\n\s+- name: TRUST_PROXY\s+value: \{\{ \$root\.Values\.config\.trustProxy \| quote \}\}/);
    expect(read(`${CHART}/templates/_helpers.tpl`)).toMatch(/if and \.Values\.ingress\.enabled \(eq \(\.Values\.config\.trustProxy[^)]*\) "loopback"\) \}\}\s+\{\{- fail "ingress\.enabled: set config\.trustProxy/);
  });

  it("gives the migrations the gateway's PROVIDER_JWT_ISSUER", () => {
    expect(read(`${CHART}/templates/migrate-job.yaml`)).toMatch(/\{\{- with \.Values\.gateway\.env\.PROVIDER_JWT_ISSUER \}\}\s+# [^\n]*\n\s+- name: PROVIDER_JWT_ISSUER\s+value: \{\{ \. \| quote \}\}/);
  });

  it('passes FRAME_ANCESTORS to the web', () => {
    expect(read(`${CHART}/templates/web.yaml`)).toMatch(/name: FRAME_ANCESTORS\s+value: \{\{ \. \| quote \}\}/);
  });
});

// ------------------------------------------------------------------------------------ kustomize base

const base = ['gateway', 'media', 'jobs', 'export', 'analytics', 'web', 'migrate-job', 'networkpolicy'].flatMap((f) => parseYamlDocs<K8sObject>(`k8s/base/${f}.yaml`));
const baseWorkloads = base.filter((d) => d.kind === 'Deployment' || d.kind === 'Job');

describe('k8s/base', () => {
  const gatewayEnv = (): Record<string, string> => {
    const gateway = base.find((d) => d.kind === 'Deployment' && d.metadata.name === 'wordcut-gateway')!;
    return Object.fromEntries((gateway.spec.template.spec.containers[0]!.env ?? []).map((e) => [e.name, e.value ?? '<from secret>']));
  };

  it('keeps the legacy upload form off and carries the gateway limits', () => {
    expect(gatewayEnv()).toMatchObject({ LEGACY_UPLOAD_ENABLED: 'false', UPLOAD_MAX_BYTES: '2147483648', RETENTION_DAYS: '30', GATEWAY_SESSION_SECRET: '<from secret>' });
    const configEnv = read('k8s/base/config.env')
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('#'));
    for (const line of configEnv) expect(line).not.toMatch(/^LEGACY_UPLOAD_ENABLED=(true|1)$/);
  });

  it("trusts only the loopback hop by default and gives the migrations the gateway's PROVIDER_JWT_ISSUER", () => {
    expect(gatewayEnv().TRUST_PROXY).toBe('loopback');
    const migrate = base.find((d) => d.kind === 'Job' && d.metadata.name === 'wordcut-migrate')!;
    const env = Object.fromEntries((migrate.spec.template.spec.containers[0]!.env ?? []).map((e) => [e.name, e.value]));
    expect(env.PROVIDER_JWT_ISSUER).toBe(gatewayEnv().PROVIDER_JWT_ISSUER);
  });

  it('includes the NetworkPolicies: default deny, and one policy with ingress and egress per workload', () => {
    expect(parseYaml<{ resources: string[] }>('k8s/base/kustomization.yaml').resources).toContain('networkpolicy.yaml');
    const policies = base.filter((d) => d.kind === 'NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'wordcut-default-deny');
    expect(deny?.spec).toEqual({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'wordcut', 'app.kubernetes.io/instance': 'wordcut' } }, policyTypes: ['Ingress', 'Egress'] });
    for (const w of baseWorkloads) {
      const component = w.spec.template.metadata.labels['app.kubernetes.io/component'];
      const policy = policies.find((p) => p.spec.podSelector.matchLabels['app.kubernetes.io/component'] === component);
      expect({ component, policyTypes: policy?.spec.policyTypes }).toEqual({ component, policyTypes: ['Ingress', 'Egress'] });
    }
  });

  it('gives every container resource requests and a memory limit', () => {
    expect(baseWorkloads.length).toBe(7);
    for (const w of baseWorkloads) {
      for (const c of w.spec.template.spec.containers) {
        expect({ container: `${w.metadata.name}/${c.name}`, cpu: !!c.resources?.requests?.cpu, memory: !!c.resources?.requests?.memory, limit: !!c.resources?.limits?.memory }).toEqual({
          container: `${w.metadata.name}/${c.name}`,
          cpu: true,
          memory: true,
          limit: true,
        });
      }
    }
  });
});

// ------------------------------------------------------------------------------------ nginx (web image)

/** nginx configuration text without comments. */
const nginxText = (file: string): string =>
  read(file)
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, ''))
    .join('\n');

interface Block {
  head: string;
  directives: string[];
  children: Block[];
}

/** A small nginx parser: blocks with their own directives (quoted strings kept whole). */
function parseNginx(text: string): Block {
  const root: Block = { head: '', directives: [], children: [] };
  const stack = [root];
  let current = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === '{') {
      const block: Block = { head: current.trim(), directives: [], children: [] };
      stack[stack.length - 1]!.children.push(block);
      stack.push(block);
      current = '';
    } else if (ch === ';') {
      if (current.trim()) stack[stack.length - 1]!.directives.push(current.trim().replace(/\s+/g, ' '));
      current = '';
    } else if (ch === '}') {
      stack.pop();
      current = '';
    } else {
      current += ch;
    }
  }
  return root;
}

const allBlocks = (b: Block): Block[] => [b, ...b.children.flatMap(allBlocks)];

const mainConf = parseNginx(nginxText('docker/web/nginx.conf'));
const serversConf = parseNginx(nginxText('docker/web/servers.conf'));
const shellServer = serversConf.children.find((b) => b.head === 'server' && b.directives.includes('listen 4200'))!;
const addHeader = (b: Block, name: string): string | undefined => b.directives.find((d) => d.startsWith(`add_header ${name} `));

/** What the entry point writes: WORDCUT_WEB_RUNTIME moves its output to a temporary directory. */
function runEntrypoint(env: Record<string, string>): { status: number | null; stderr: string; dir: string; read: (f: string) => string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wordcut-web-'));
  const r = spawnSync('sh', [path.join(ROOT, 'docker/web/entrypoint.sh'), 'true'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WORDCUT_WEB_RUNTIME: dir, ...env },
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr, dir, read: (f) => readFileSync(path.join(dir, f), 'utf8') };
}

describe('docker/web nginx', () => {
  it('sends the security headers on every answer of the shell', () => {
    expect(shellServer).toBeDefined();
    const csp = addHeader(shellServer, 'Content-Security-Policy');
    expect(csp).toBeDefined();
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'self'$wc_frame_ancestors",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(addHeader(shellServer, 'Referrer-Policy')).toBe('add_header Referrer-Policy no-referrer always');
    expect(addHeader(shellServer, 'X-Content-Type-Options')).toBe('add_header X-Content-Type-Options nosniff always');
    expect(addHeader(shellServer, 'Permissions-Policy')).toMatch(/camera=\(\).*microphone=\(\)/);
    for (const name of ['Content-Security-Policy', 'Referrer-Policy', 'X-Content-Type-Options', 'Permissions-Policy']) {
      expect(addHeader(shellServer, name)).toMatch(/ always$/);
    }
  });

  it('adds no header in a location of the shell (nginx would drop the security headers there)', () => {
    for (const block of allBlocks(shellServer).slice(1)) {
      expect({ block: block.head, addHeader: block.directives.filter((d) => d.startsWith('add_header')) }).toEqual({ block: block.head, addHeader: [] });
    }
    // the webhook location the entry point writes is included in this server too
    const webhooks = runEntrypoint({ EXPORT_UPSTREAM: 'export:3103' });
    try {
      expect(webhooks.status).toBe(0);
      expect(webhooks.read('conf/webhooks.conf')).toContain('location = /webhooks/provider');
      expect(webhooks.read('conf/webhooks.conf')).not.toContain('add_header');
    } finally {
      rmSync(webhooks.dir, { recursive: true, force: true });
    }
  });

  it('never logs a query string: no $request, $request_uri or $args in a log format, no default format', () => {
    const blocks = [mainConf, serversConf, parseNginx(nginxText('docker/web/remote.conf'))].flatMap(allBlocks);
    const directives = blocks.flatMap((b) => b.directives);
    const formats = new Map(
      directives
        .filter((d) => d.startsWith('log_format '))
        .map((d) => {
          const [, name, ...rest] = d.split(' ');
          return [name!, rest.join(' ')] as const;
        }),
    );
    expect(formats.size).toBeGreaterThan(0);
    const maps = new Map(
      allBlocks(mainConf)
        .filter((b) => b.head.startsWith('map '))
        .map((b) => {
          const [, source, target] = b.head.split(/\s+/);
          return [target!, { source: source!, entries: b.directives }] as const;
        }),
    );
    const FORBIDDEN = /\$(request|request_uri|args|query_string|is_args|arg_[A-Za-z0-9_]+)\b/;
    for (const [name, format] of formats) {
      expect({ name, forbidden: format.match(FORBIDDEN)?.[0] ?? null }).toEqual({ name, forbidden: null });
      for (const variable of format.match(/\$[A-Za-z0-9_]+/g) ?? []) {
        const map = maps.get(variable);
        if (!map || !FORBIDDEN.test(map.source)) continue;
        // a map of the request line may feed a log only as its path, cut at the '?'
        expect(map.entries.sort()).toEqual(['"~^([^?]*)" $1', 'default "-"']);
      }
    }
    for (const d of directives.filter((x) => x.startsWith('access_log '))) {
      const [, target, format] = d.split(' ');
      if (target === 'off') continue;
      expect({ accessLog: d, knownFormat: !!format && formats.has(format) }).toEqual({ accessLog: d, knownFormat: true });
    }
  });

  it('puts FRAME_ANCESTORS into frame-ancestors, and the origins of remotes hosted elsewhere into the policy', () => {
    const r = runEntrypoint({ FRAME_ANCESTORS: 'https://provider.example.com  https://*.provider.example.com', REMOTE_ANALYTICS_URL: 'https://cdn.example.com/wordcut/analytics/' });
    try {
      expect(r.status).toBe(0);
      const security = r.read('conf/security.conf');
      expect(security).toContain('map $host $wc_frame_ancestors {\n    default " https://provider.example.com https://*.provider.example.com";\n}');
      expect(security).toContain('map $host $wc_csp_remotes {\n    default " https://cdn.example.com";\n}');
      expect(r.read('conf/webhooks.conf')).not.toContain('location');
    } finally {
      rmSync(r.dir, { recursive: true, force: true });
    }
    const none = runEntrypoint({});
    try {
      expect(none.read('conf/security.conf')).toContain('map $host $wc_frame_ancestors {\n    default "";\n}');
    } finally {
      rmSync(none.dir, { recursive: true, force: true });
    }
  });

  it.each(["https://a.example.com; script-src *", 'javascript:alert(1)', "'unsafe-inline'", 'https://a.example.com"', 'https://a.example.com/path'])(
    'refuses FRAME_ANCESTORS=%s',
    (value) => {
      const r = runEntrypoint({ FRAME_ANCESTORS: value });
      try {
        expect(r.status).not.toBe(0);
        expect(r.stderr).toContain('FRAME_ANCESTORS');
      } finally {
        rmSync(r.dir, { recursive: true, force: true });
      }
    },
  );

  it('has a shell script that parses', () => {
    expect(() => execFileSync('sh', ['-n', path.join(ROOT, 'docker/web/entrypoint.sh')])).not.toThrow();
  });
});
