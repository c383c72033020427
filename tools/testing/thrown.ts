/** The error of class `type` that `fn` throws (fails the test when it throws nothing or something else). */
export function thrownBy<E extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}
