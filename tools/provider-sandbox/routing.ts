/** The sandbox's route table: a route per method set and path pattern, the first matching path wins. */
import type http from 'node:http';
import { HttpError } from './http';

export interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  m: RegExpExecArray;
  body: AsyncGenerator<Buffer>;
}

export interface Route {
  method: string[];
  path: RegExp;
  /** the handler reads the body itself (so a 'cut' fault happens inside it) */
  readsBody?: boolean;
  handle(ctx: Ctx): void | Promise<void>;
}

/** The first route whose path matches; 405 when its methods do not include this one, 404 when none. */
export function findRoute(routes: Route[], method: string, pathname: string): { route: Route; m: RegExpExecArray } {
  for (const route of routes) {
    const m = route.path.exec(pathname);
    if (!m) continue;
    if (!route.method.includes(method)) throw new HttpError(405, 'method not allowed', pathname.startsWith('/uploads/') || pathname.startsWith('/api/') ? 'method_not_allowed' : undefined, { allow: route.method.join(', ') });
    return { route, m };
  }
  throw new HttpError(404, 'not found', pathname.startsWith('/api/') || pathname.startsWith('/_control/') ? 'not_found' : undefined);
}
