/** A request field the caller must fix (→ INVALID_ARGUMENT). The message starts with the field path. */
export class InvalidRequestError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'InvalidRequestError';
  }
}

/** The request is valid but the current state forbids it (→ FAILED_PRECONDITION, with an agent error code). */
export class PreconditionFailedError extends Error {
  constructor(
    message: string,
    readonly errorCode: number,
    readonly recoveryHint?: string,
  ) {
    super(message);
    this.name = 'PreconditionFailedError';
  }
}

export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

export class AlreadyExistsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AlreadyExistsError';
  }
}

/** Too much work in flight (→ RESOURCE_EXHAUSTED with retry-after). */
export class CapacityExhaustedError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'CapacityExhaustedError';
  }
}

/** The caller may not do this without a human approval the agents cannot obtain (→ PERMISSION_DENIED, 4003). */
export class ApprovalRequiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApprovalRequiredError';
  }
}

/** The replica that runs a task could not be reached (→ UNAVAILABLE with retry-after). */
export class TaskOwnerUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskOwnerUnreachableError';
  }
}
