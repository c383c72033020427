/** The operator dashboard's session for tests: the cookie to send back and the CSRF token. */
import { OPERATOR_COOKIE, OPERATOR_CSRF_HEADER, operatorStatusSchema } from '@wordcut/contracts';

export interface OperatorSessionForTest {
  cookie: string;
  csrfToken: string;
  /** the headers of a state-changing operator call */
  headers: Record<string, string>;
}

/** Signs in at the gateway at `gatewayUrl` with `password`; throws unless it answers 200. */
export async function operatorLogin(gatewayUrl: string, password: string, extraHeaders: Record<string, string> = {}): Promise<OperatorSessionForTest> {
  const res = await fetch(`${gatewayUrl}/api/analytics/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...extraHeaders }, body: JSON.stringify({ password }) });
  if (res.status !== 200) throw new Error(`POST /api/analytics/login answered ${res.status}: ${await res.text()}`);
  const status = operatorStatusSchema.parse(await res.json());
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith(`${OPERATOR_COOKIE}=`));
  if (!setCookie || !status.csrfToken) throw new Error('the login set no operator cookie or CSRF token');
  const cookie = setCookie.split(';')[0]!;
  return { cookie, csrfToken: status.csrfToken, headers: { cookie, [OPERATOR_CSRF_HEADER]: status.csrfToken } };
}
