import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { DEAD_API_PORT, DEAD_API_SHELL_PORT, E2E_PORTS, E2E_SHELL_URL, E2E_WEB_PORTS } from './ports';

/**
 * End-to-end tests of the BUILT web apps (run `npm run build:web` first). The shell and the
 * four remotes are served by tools/scripts/serve-static.js on 4400..4404, the shell with
 * the /api proxy to the real backend that global-setup.ts starts (services built first).
 */
const repoRoot = path.resolve(__dirname, '..');
const isCI = !!process.env.CI;

const REMOTE_PORTS = { editor: E2E_WEB_PORTS.editor, keyclips: E2E_WEB_PORTS.keyclips, publish: E2E_WEB_PORTS.publish, analytics: E2E_WEB_PORTS.analytics } as const;
/** The shells' /remotes.json names the e2e remotes (serve-static's REMOTE_<NAME>_URL). */
const REMOTE_URLS = Object.fromEntries(Object.entries(REMOTE_PORTS).map(([name, port]) => [`REMOTE_${name.toUpperCase()}_URL`, `http://localhost:${port}/mf-manifest.json`]));

function serve(app: string, port: number, flags: string) {
  return {
    command: `node tools/scripts/serve-static.js --dir apps/${app}/dist --port ${port} ${flags}`.trim(),
    cwd: repoRoot,
    url: app === 'shell' ? `http://localhost:${port}/remotes.json` : `http://localhost:${port}/mf-manifest.json`,
    reuseExistingServer: !isCI,
    timeout: 30_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: app === 'shell' ? REMOTE_URLS : {},
  };
}

export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  globalSetup: require.resolve('./global-setup'),
  outputDir: path.join(repoRoot, 'test-results/e2e'),
  // two files at a time: every test edits its own seeded video under its own provider session
  // (one worker left the cores idle ~45% of the time, waiting on renders and the job overlay);
  // the tests that time playback frame by frame (@playback) run after them, one at a time
  fullyParallel: false,
  workers: 2,
  forbidOnly: isCI,
  // a flaky test is fixed, not retried
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: isCI ? [['list'], ['html', { open: 'never', outputFolder: path.join(repoRoot, 'playwright-report') }]] : 'list',
  use: {
    baseURL: E2E_SHELL_URL,
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
  projects: [
    { name: 'chromium', grepInvert: /@playback/ },
    { name: 'playback', grep: /@playback/, dependencies: ['chromium'], workers: 1 },
  ],
  webServer: [
    serve('shell', E2E_WEB_PORTS.shell, `--spa --proxy /api=http://127.0.0.1:${E2E_PORTS.gateway}`),
    // the same shell with its API unreachable, for the "API is down" test
    serve('shell', DEAD_API_SHELL_PORT, `--spa --proxy /api=http://127.0.0.1:${DEAD_API_PORT}`),
    serve('editor', REMOTE_PORTS.editor, '--cors'),
    serve('keyclips', REMOTE_PORTS.keyclips, '--cors'),
    serve('publish', REMOTE_PORTS.publish, '--cors'),
    serve('analytics', REMOTE_PORTS.analytics, '--cors'),
  ],
});
