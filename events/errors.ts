/** A rule of the domain said no; the status is what HTTP answers with. */
export class DomainError extends Error {
  readonly status: number;
  /** More for the client than the message: answered beside it (e.g. the current status on a 409). */
  readonly details: Record<string, unknown>;
  constructor(status: number, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.details = details;
  }
}

/** The stream moved on since it was read. */
export class StaleVersion extends DomainError {
  constructor(streamId: string, expected: number) {
    super(409, `Stream ${streamId} is no longer at version ${expected}; reload and try again`);
  }
}
