import { ErrorCode } from '@wordcut/contracts';
import { EditListError } from '@wordcut/edit-list';
import { AppError } from '@wordcut/platform';
import { z } from 'zod';

const uuid = z.string().uuid();

type Issue = z.core.$ZodIssue;

/** A video that is missing, or someone else's: both answer the same 404. */
export const videoNotFound = (id: string): AppError => new AppError(404, ErrorCode.NotFound, `There is no video with id '${id}'.`);

/** Why a body over a list limit was refused (`details.reason`), for the operators' log too. */
export const TOO_MANY_ENTRIES = 'TOO_MANY_ENTRIES';

/**
 * The issues of a failed parse. A union's are those of the branch the body came closest to (the
 * one without unknown keys, else the one with the fewest issues), so the message names the real problem.
 */
export function bodyIssues(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !issue.errors?.length) return [issue];
    const branches = issue.errors.map((b) => bodyIssues(b));
    const fitting = branches.filter((b) => !b.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0));
    const closest = (fitting.length ? fitting : branches).reduce((best, b) => (b.length < best.length ? b : best));
    return closest.length ? closest.map((i) => ({ ...i, path: [...issue.path, ...i.path] })) : [issue];
  });
}

/** The issue that puts a list over its limit, if one does. */
export function tooManyEntries(issues: readonly Issue[]): Extract<Issue, { code: 'too_big' }> | undefined {
  return issues.find((i): i is Extract<Issue, { code: 'too_big' }> => i.code === 'too_big' && i.origin === 'array');
}

/** `path: message` of an issue. */
export const describeIssue = (i: Issue): string => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`;

/**
 * A request body read by its schema: 400 naming the first problem (all of them in
 * `details.issues`); a list over its limit also says `details.reason` TOO_MANY_ENTRIES.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw invalidBody(r.error.issues);
  return r.data;
}

/** The 400 of a body its schema refused; `prefix` goes before the first problem. */
export function invalidBody(raw: readonly Issue[], prefix = ''): AppError {
  const issues = bodyIssues(raw);
  const first = tooManyEntries(issues) ?? issues[0];
  return new AppError(400, ErrorCode.ValidationFailed, `${prefix}${first ? describeIssue(first) : 'Invalid request.'}`, {
    issues,
    ...(tooManyEntries(issues) ? { reason: TOO_MANY_ENTRIES } : {}),
  });
}

/** An id from the path: anything that is not one can name nothing, so 404 like a missing object. */
export function parseId(id: string, what = 'video'): string {
  if (!uuid.safeParse(id).success) throw new AppError(404, ErrorCode.NotFound, `There is no ${what} with id '${id.slice(0, 64)}'.`);
  return id;
}

/** A version number in a path (a whole number, at most 9 digits); anything else names no version: 404. */
export function parseSeq(seq: string): number {
  if (!/^\d{1,9}$/.test(seq)) throw new AppError(404, ErrorCode.NotFound, `This video has no version '${seq.slice(0, 16)}'.`);
  return Number(seq);
}

/** Edit-list errors are the client's: 422 with the library's message. */
export function editing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof EditListError) throw new AppError(422, ErrorCode.ValidationFailed, err.message, { reason: err.code });
    throw err;
  }
}

/** A download's Content-Disposition: an ASCII name for old clients and the exact name (RFC 5987) for the rest. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, "'");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
