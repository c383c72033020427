/** Ports of the backend the e2e tests start (away from the dev stack's 3000-3104). */
export const E2E_PORTS = { gateway: 3300, media: 3301, jobs: 3302, export: 3303, analytics: 3304 } as const;
/** A port where nothing listens: a second shell proxies /api there to test "API down". */
export const DEAD_API_PORT = 3399;
/** The provider sandbox of the e2e run (its links open the shell on 4200). */
export const E2E_SANDBOX_PORT = 3310;
