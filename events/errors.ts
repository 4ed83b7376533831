/** A rule of the domain said no; the status is what HTTP answers with. */
export class DomainError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The stream moved on since it was read. */
export class StaleVersion extends DomainError {
  constructor(streamId: string, expected: number) {
    super(409, `Stream ${streamId} is no longer at version ${expected}; reload and try again`);
  }
}
