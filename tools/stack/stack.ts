/**
 * Starts WordCut's services as real processes (the built `dist/main.js` of each), with one
 * environment, and watches them: used by `npm start`, the system tests and the e2e tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = resolve(__dirname, '../..');

export const SERVICES = ['jobs', 'media', 'analytics', 'export', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];
export const MIGRATING_SERVICES = ['jobs', 'analytics', 'export', 'gateway'] as const;

export const DEFAULT_PORTS: Record<ServiceName, number> = { gateway: 3000, media: 3101, jobs: 3102, export: 3103, analytics: 3104 };

/** The operator dashboard's password on a local or test stack only (deployments set ANALYTICS_PASSWORD from a secret). */
export const LOCAL_ANALYTICS_PASSWORD = 'wordcut-local-operator';

/**
 * What a local or test gateway needs unless the environment says otherwise: the upload form on
 * (deployments keep it off), a session-signing secret for this run, and the local operator
 * password with a cookie that plain http carries.
 */
export function withGatewayDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    LEGACY_UPLOAD_ENABLED: 'true',
    GATEWAY_SESSION_SECRET: randomBytes(32).toString('hex'),
    ANALYTICS_PASSWORD: LOCAL_ANALYTICS_PASSWORD,
    ANALYTICS_COOKIE_SECURE: 'false',
    ...env,
  };
}

export interface LogLine {
  service: string;
  level?: string;
  msg?: string;
  trace_id?: string;
  correlationId?: string;
  [k: string]: unknown;
}

export class ServiceProcess {
  readonly lines: LogLine[] = [];
  readonly stderr: string[] = [];
  child: ChildProcess | undefined;
  private exited: Promise<number | null> = Promise.resolve(null);

  constructor(
    readonly name: string,
    readonly port: number,
    readonly env: NodeJS.ProcessEnv,
    private readonly logFile?: WriteStream,
    private readonly echo = false,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  start(extraEnv: NodeJS.ProcessEnv = {}): this {
    const child = spawn(process.execPath, [join(ROOT, 'services', this.name, 'dist', 'main.js')], {
      cwd: ROOT,
      env: { ...this.env, ...extraEnv, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((r) => child.once('exit', (code) => r(code)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.logFile?.write(`${line}\n`);
      if (this.echo) process.stdout.write(`[${this.name}] ${line}\n`);
      try {
        this.lines.push(JSON.parse(line) as LogLine);
      } catch {
        this.lines.push({ service: this.name, msg: line });
      }
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      this.logFile?.write(`${line}\n`);
      if (this.echo) process.stderr.write(`[${this.name}] ${line}\n`);
      this.stderr.push(line);
    });
    return this;
  }

  async waitHealthy(timeoutMs = 30000): Promise<void> {
    const until = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < until) {
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`${this.name} exited with ${this.child.exitCode}: ${this.stderr.slice(-20).join('\n')}`);
      }
      try {
        const res = await fetch(`${this.url}/healthz`);
        if (res.ok) return;
        last = await res.text();
      } catch (err) {
        last = (err as Error).message;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${this.name} not healthy after ${timeoutMs} ms: ${last}\n${this.stderr.slice(-20).join('\n')}`);
  }

  /** SIGKILL: the process gets no chance to clean up, like a crashed pod. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null) return this.child?.exitCode ?? null;
    this.child.kill(signal);
    return this.exited;
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 10000);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface StackEnv {
  DATABASE_URL: string;
  NATS_URL: string;
  NATS_NAMESPACE: string;
  S3_ENDPOINT: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_BUCKET: string;
  [k: string]: string;
}

export interface Stack {
  services: Record<ServiceName, ServiceProcess>;
  stop(): Promise<void>;
}

/** Runs `dist/migrate.js` of every service that owns a schema. */
export async function migrateAll(env: StackEnv): Promise<void> {
  for (const s of MIGRATING_SERVICES) {
    await new Promise<void>((ok, fail) => {
      const child = spawn(process.execPath, [join(ROOT, 'services', s, 'dist', 'migrate.js')], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`migrations of ${s} failed: ${err}`))));
    });
  }
}

export async function startStack(o: {
  env: StackEnv;
  ports?: Partial<Record<ServiceName, number>>;
  perService?: Partial<Record<ServiceName, NodeJS.ProcessEnv>>;
  logDir?: string;
  echo?: boolean;
}): Promise<Stack> {
  if (o.logDir) mkdirSync(o.logDir, { recursive: true });
  const services = {} as Record<ServiceName, ServiceProcess>;
  for (const name of SERVICES) {
    const log = o.logDir ? createWriteStream(join(o.logDir, `${name}.log`), { flags: 'a' }) : undefined;
    services[name] = new ServiceProcess(
      name,
      o.ports?.[name] ?? DEFAULT_PORTS[name],
      (name === 'gateway' ? withGatewayDefaults : (e: NodeJS.ProcessEnv) => e)({
        ...process.env,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        LOG_LEVEL: 'info',
        ...o.env,
        ...(o.perService?.[name] ?? {}),
      }),
      log,
      o.echo,
    );
  }
  const stop = async () => {
    await Promise.all(SERVICES.map((s) => services[s].stop()));
  };
  try {
    // the stream owners first, then the workers, the gateway last
    for (const group of [['jobs', 'analytics', 'export'], ['media'], ['gateway']] as ServiceName[][]) {
      for (const s of group) services[s].start();
      await Promise.all(group.map((s) => services[s].waitHealthy()));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { services, stop };
}
