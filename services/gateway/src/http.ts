import { ErrorCode } from '@wordcut/contracts';
import { EditListError } from '@wordcut/edit-list';
import { AppError } from '@wordcut/platform';
import { z } from 'zod';

const uuid = z.string().uuid();

/** A request body read by its schema: 400 naming the first problem (all of them in `details.issues`). */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) {
    const first = r.error.issues[0];
    throw new AppError(400, ErrorCode.ValidationFailed, first ? `${first.path.length ? `${first.path.join('.')}: ` : ''}${first.message}` : 'Invalid request.', {
      issues: r.error.issues,
    });
  }
  return r.data;
}

/** An id from the path: anything that is not one can name nothing, so 404 like a missing object. */
export function parseId(id: string, what = 'video'): string {
  if (!uuid.safeParse(id).success) throw new AppError(404, ErrorCode.NotFound, `There is no ${what} with id '${id.slice(0, 64)}'.`);
  return id;
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
