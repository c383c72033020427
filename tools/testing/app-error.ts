import { AppError, errorBody } from '@wordcut/platform';

/** The AppError a promise rejects with (fails the test when it resolves or rejects with something else). */
export async function rejectedWith(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => {
      throw new Error('expected a refusal, but the call succeeded');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** The JSON body the gateway's error filter sends for an AppError (without a correlation id). */
export function responseBodyOf(e: AppError): unknown {
  return JSON.parse(JSON.stringify({ ...errorBody(e.statusCode, e.code, e.message, undefined, e.details), ...e.extra }));
}
