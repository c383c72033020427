/** Ports of the backend the e2e tests start (away from the dev stack's 3000-3104). */
export const E2E_PORTS = { gateway: 3300, media: 3301, jobs: 3302, export: 3303, analytics: 3304 } as const;
/** A port where nothing listens: a second shell proxies /api there to test "API down". */
export const DEAD_API_PORT = 3399;
/**
 * The web apps of the e2e run, away from the local product's 4200-4204, so `npm test` runs beside
 * `npm start`: the shell (its /remotes.json points at these remotes) and the four remotes.
 */
export const E2E_WEB_PORTS = { shell: 4400, editor: 4401, keyclips: 4402, publish: 4403, analytics: 4404 } as const;
/** A second shell whose /api goes to DEAD_API_PORT. */
export const DEAD_API_SHELL_PORT = 4490;
export const E2E_SHELL_URL = `http://localhost:${E2E_WEB_PORTS.shell}`;
/** The provider sandbox of the e2e run (its links open the e2e shell). */
export const E2E_SANDBOX_PORT = 3310;
