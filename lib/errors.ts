/**
 * The mark every AppError carries. Next.js bundles lib/ once per server bundle (each route, the pages, the
 * instrumentation), so an error thrown by one copy of this module is not an `instanceof` another copy's AppError;
 * `Symbol.for` is one symbol for the whole process, so the mark is recognised whichever copy made the error.
 */
const APP_ERROR = Symbol.for("framejury.app-error");

/** What a handler reads of an app error, whichever copy of this module threw it (isAppError). */
export interface AppErrorLike {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

/** An error whose message is safe to show to the caller, with the HTTP status it maps to. */
export class AppError extends Error implements AppErrorLike {
  readonly [APP_ERROR] = true;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Structured facts the caller can act on (e.g. a conflict's current version); sent as `error.details`. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * Is this one of the app's own errors (its message safe to show, its status and code to send)? Recognised by the
 * mark it carries, never by class identity (see APP_ERROR); another error with a `code` (Node's `ENOENT`, Prisma's
 * `P2002`) is not one, so its message never reaches the caller.
 */
export function isAppError(error: unknown): error is AppErrorLike {
  if (typeof error !== "object" || error === null || (error as Record<symbol, unknown>)[APP_ERROR] !== true)
    return false;
  const { status, code, message } = error as Partial<AppErrorLike>;
  return (
    typeof status === "number" &&
    Number.isInteger(status) &&
    status >= 400 &&
    status <= 599 &&
    typeof code === "string" &&
    typeof message === "string"
  );
}

/** Is this an app error with this code (`not_found`: a NotFoundError, `invalid_request`: a ValidationError)? As isAppError, whichever copy made it. */
export function isAppErrorCode(error: unknown, code: string): error is AppErrorLike {
  return isAppError(error) && error.code === code;
}

export class NotFoundError extends AppError {
  constructor(message = "Not found.") {
    super(404, "not_found", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "You are not allowed to do that.") {
    super(403, "forbidden", message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "Sign in or send an API key (Authorization: Bearer <key>).") {
    super(401, "unauthorized", message);
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(400, "invalid_request", message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, "conflict", message);
  }
}

/** The same bytes are already in the project: reported, not stored twice. */
export class DuplicateVideoError extends AppError {
  constructor(
    readonly existingVideoId: string,
    fileName: string,
  ) {
    // The existing video's id in `details`, so a client resuming an import can finish that video's frames.
    super(
      409,
      "duplicate",
      `${fileName} is already in this project (same SHA-256 as video ${existingVideoId}); not stored again.`,
      { videoId: existingVideoId },
    );
  }
}

/** The file arrived whole but is not a usable video (empty, not a video, audio only, corrupt). */
export class UnusableVideoError extends AppError {
  constructor(reason: string, message: string) {
    super(422, reason, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(413, "too_large", message, details);
  }
}

/** The client dropped the connection before its request body arrived whole; nothing of it is kept. */
export class RequestAbortedError extends AppError {
  constructor() {
    super(400, "aborted", "The request was interrupted before its body arrived.");
  }
}
