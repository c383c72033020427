import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { DEAD_API_PORT, E2E_PORTS } from './ports';

const DEAD_API_SHELL_PORT = 4290;

/**
 * End-to-end tests of the BUILT web apps (run `npm run build:web` first). The shell and the
 * four remotes are served by tools/scripts/serve-static.js on 4200..4204, the shell with
 * the /api proxy to the real backend that global-setup.ts starts (services built first).
 */
const repoRoot = path.resolve(__dirname, '..');
const isCI = !!process.env.CI;

const SHELL_URL = 'http://localhost:4200';
const REMOTE_PORTS = { editor: 4201, keyclips: 4202, publish: 4203, analytics: 4204 } as const;

function serve(app: string, port: number, flags: string) {
  return {
    command: `node tools/scripts/serve-static.js --dir apps/${app}/dist --port ${port} ${flags}`.trim(),
    cwd: repoRoot,
    url: app === 'shell' ? `http://localhost:${port}/remotes.json` : `http://localhost:${port}/mf-manifest.json`,
    reuseExistingServer: !isCI,
    timeout: 30_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  globalSetup: require.resolve('./global-setup'),
  outputDir: path.join(repoRoot, 'test-results/e2e'),
  fullyParallel: false,
  workers: 1,
  forbidOnly: isCI,
  // a flaky test is fixed, not retried
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: isCI ? [['list'], ['html', { open: 'never', outputFolder: path.join(repoRoot, 'playwright-report') }]] : 'list',
  use: {
    baseURL: SHELL_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: [
    serve('shell', 4200, `--spa --proxy /api=http://127.0.0.1:${E2E_PORTS.gateway}`),
    // the same shell with its API unreachable, for the "API is down" test
    serve('shell', DEAD_API_SHELL_PORT, `--spa --proxy /api=http://127.0.0.1:${DEAD_API_PORT}`),
    serve('editor', REMOTE_PORTS.editor, '--cors'),
    serve('keyclips', REMOTE_PORTS.keyclips, '--cors'),
    serve('publish', REMOTE_PORTS.publish, '--cors'),
    serve('analytics', REMOTE_PORTS.analytics, '--cors'),
  ],
});
