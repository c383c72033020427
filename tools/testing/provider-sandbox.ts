import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProviderSandbox, type ProviderSandbox, type ProviderSandboxOptions } from '../provider-sandbox/sandbox';

export interface SandboxWithMedia {
  sandbox: ProviderSandbox;
  /** the sandbox's media folder (a temporary one) */
  mediaDir: string;
  /** stops the sandbox and removes the media folder */
  close(): Promise<void>;
}

/**
 * The provider sandbox on an ephemeral port, serving `files` (name -> content) from a new
 * temporary media folder named after `prefix`. The editor URL defaults to http://localhost:4200.
 */
export async function startSandboxWithMedia(
  prefix: string,
  files: Record<string, string | Buffer>,
  options: Partial<Omit<ProviderSandboxOptions, 'port' | 'mediaDir'>> = {},
): Promise<SandboxWithMedia> {
  const mediaDir = await mkdtemp(join(tmpdir(), prefix));
  const removeDir = () => rm(mediaDir, { recursive: true, force: true });
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(join(mediaDir, name), content);
    const sandbox = await startProviderSandbox({ editorUrl: 'http://localhost:4200', ...options, port: 0, mediaDir });
    return {
      sandbox,
      mediaDir,
      close: async () => {
        await sandbox.close();
        await removeDir();
      },
    };
  } catch (err) {
    await removeDir();
    throw err;
  }
}

/**
 * {@link startSandboxWithMedia} for the spec file that calls it (at its top level): started before
 * its tests, stopped after them. Read `sandbox` and `mediaDir` inside hooks and tests.
 */
export function sandboxWithMediaForSpec(...args: Parameters<typeof startSandboxWithMedia>): Readonly<Omit<SandboxWithMedia, 'close'>> {
  let served: SandboxWithMedia | undefined;
  beforeAll(async () => {
    served = await startSandboxWithMedia(...args);
  });
  afterAll(() => served?.close());
  const ready = (): SandboxWithMedia => {
    if (!served) throw new Error('the provider sandbox is not running: use it inside hooks and tests');
    return served;
  };
  return {
    get sandbox() {
      return ready().sandbox;
    },
    get mediaDir() {
      return ready().mediaDir;
    },
  };
}
