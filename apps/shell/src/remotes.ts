import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTE_EXPOSE, REMOTE_NAMES, containerName } from '@wordcut/ui';
import type { RemoteModule, RemoteName } from '@wordcut/ui';

/**
 * Remote locations are configuration, not code: the shell fetches `/remotes.json` (served
 * next to index.html; a deployment may rewrite it or the static server may build it from
 * REMOTE_<NAME>_URL) and registers each remote with the Module Federation runtime.
 * Nothing about a remote's URL is compiled into the shell.
 */

export type RemotesConfig = Partial<Record<RemoteName, string>>;

export const REMOTES_CONFIG_URL = '/remotes.json';

/**
 * A configured value may be the remote's manifest (`.../mf-manifest.json`), its
 * `remoteEntry.js`, or just its base URL (then the manifest beside it is used).
 * Relative values resolve against the shell's origin.
 */
export function normalizeEntry(value: string): string {
  const trimmed = value.trim();
  if (/\.(json|js)([?#].*)?$/.test(trimmed)) return trimmed;
  return `${trimmed.replace(/\/+$/, '')}/mf-manifest.json`;
}

/** Keeps the known remote names with a non-empty string value; anything else is ignored. */
export function parseRemotesConfig(raw: unknown): RemotesConfig {
  const config: RemotesConfig = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return config;
  const record = raw as Record<string, unknown>;
  for (const name of REMOTE_NAMES) {
    const value = record[name];
    if (typeof value === 'string' && value.trim()) config[name] = normalizeEntry(value);
  }
  return config;
}

/** A remote that neither loads nor fails (a black-holed host) gives up after this long. */
export const REMOTE_LOAD_TIMEOUT_MS = 15_000;

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let configPromise: Promise<RemotesConfig> | null = null;

async function fetchAndRegister(): Promise<RemotesConfig> {
  const res = await withTimeout(
    fetch(REMOTES_CONFIG_URL, { cache: 'no-store', credentials: 'same-origin' }),
    REMOTE_LOAD_TIMEOUT_MS,
    `Loading ${REMOTES_CONFIG_URL} timed out`,
  );
  if (!res.ok) throw new Error(`${REMOTES_CONFIG_URL} answered ${res.status}`);
  const config = parseRemotesConfig(await res.json());
  registerRemotes(
    Object.entries(config).map(([name, entry]) => ({ name: containerName(name as RemoteName), entry })),
    { force: true },
  );
  return config;
}

/** The registered remotes; fetched once, fetched again after a failure. */
export function remotesConfig(): Promise<RemotesConfig> {
  if (!configPromise) {
    configPromise = fetchAndRegister().catch((err: unknown) => {
      configPromise = null;
      throw err;
    });
  }
  return configPromise;
}

/**
 * Loads `<remote>/Module`. With `retry`, the remote is registered again (forced), which
 * drops the runtime's cached manifest, entry script and module of the failed attempt.
 * Rejects when the remote is not configured, unreachable, or its module throws at load.
 */
export async function loadRemoteModule(name: RemoteName, options: { retry?: boolean } = {}): Promise<RemoteModule> {
  const config = await remotesConfig();
  const entry = config[name];
  if (!entry) throw new Error(`No URL is configured for the ${name} remote in ${REMOTES_CONFIG_URL}`);
  const id = `${containerName(name)}/${REMOTE_EXPOSE.replace(/^\.\//, '')}`;
  if (options.retry) registerRemotes([{ name: containerName(name), entry }], { force: true });
  const mod = await withTimeout(
    loadRemote<RemoteModule>(id),
    REMOTE_LOAD_TIMEOUT_MS,
    `Loading the ${name} remote from ${entry} timed out after ${REMOTE_LOAD_TIMEOUT_MS / 1000} s`,
  );
  if (!mod || mod.default == null) throw new Error(`The ${name} remote did not export a component from ${REMOTE_EXPOSE}`);
  return mod;
}
