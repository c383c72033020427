/** Throw from a handler when retrying cannot help (bad input, missing object): the message goes straight to the dead-letter stream. */
export class PermanentError extends Error {
  constructor(message: string, readonly code = 'PERMANENT') {
    super(message);
    this.name = 'PermanentError';
  }
}

/** Throw from a handler to ask for a redelivery after a specific delay. */
export class RetryLaterError extends Error {
  constructor(message: string, readonly delayMs: number) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

/** A request/reply handler on the other side failed. */
export class RemoteError extends Error {
  constructor(readonly subject: string, message: string) {
    super(`${subject}: ${message}`);
    this.name = 'RemoteError';
  }
}
