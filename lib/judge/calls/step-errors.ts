import { isAppError } from "../../errors";

/**
 * What a failed step or call stores as its error. Members (viewers included) read step errors, so
 * they carry a short message and the error's class, never a stack, a server path or a code excerpt
 * (Prisma puts both in its messages); the full error goes to the server log only.
 */

export const MAX_EXCERPT_CHARS = 200;
// Room for an endpoint's own message (at most MAX_EXCERPT_CHARS) and what to change on the server.
const MAX_MESSAGE_CHARS = 600;

// Absolute paths (POSIX, file:// URLs, Windows drives), with an optional :line:column.
const PATH = /(?:file:\/\/)?(?:[A-Za-z]:\\|\/)(?:[\w.@+~-]+[\\/])+[\w.@+~-]*(?::\d+(?::\d+)?)?/g;
// Lines that are a stack frame, a numbered code excerpt ("→ 12   await prisma…") or Prisma's "Invalid `…` invocation in".
const NOISE_LINE = /^\s*(?:at\s|→|\d+\s|Invalid `.*` invocation|\^+\s*$|~+\s*$)/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
// Things that look like credentials, whatever endpoint echoed them.
const SECRET_LIKE = [
  /\b(?:sk|pk|rk|fj)[-_][A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(?:api[-_]?key|token|secret|password)(["'\s:=]+)[^\s"',}]{6,}/gi,
];

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A text with stack frames, code excerpts and server paths taken out, on one line. */
export function withoutServerDetails(text: string, max = MAX_MESSAGE_CHARS): string {
  const lines = text
    .split(/\r?\n/)
    .filter((line) => !NOISE_LINE.test(line))
    .map((line) => line.replace(PATH, "[path]").replace(CONTROL, " ").trim())
    .filter((line) => line !== "" && line !== "[path]");
  return truncate(lines.join(" ").replace(/\s+/g, " ").trim(), max);
}

/**
 * At most 200 characters of an endpoint's error body, safe to store: control characters and
 * anything that looks like a credential (or is one of `secrets`) removed.
 */
export function errorBodyExcerpt(
  body: string | null | undefined,
  secrets: (string | null | undefined)[] = [],
): string | null {
  if (!body) return null;
  let text = body;
  for (const secret of secrets) if (secret && secret.length >= 4) text = text.split(secret).join("[redacted]");
  for (const pattern of SECRET_LIKE)
    text = text.replace(pattern, (match, separator?: string) =>
      typeof separator === "string" && !match.startsWith("Bearer")
        ? `${match.slice(0, match.indexOf(separator) + separator.length)}[redacted]`
        : "[redacted]",
    );
  text = withoutServerDetails(text.replace(CONTROL, " "), Number.MAX_SAFE_INTEGER);
  return text ? truncate(text, MAX_EXCERPT_CHARS) : null;
}

/** The error class as shown: its name, and a code when it has one (ENOENT, P2002). */
function errorClass(error: Error): string {
  const constructorName =
    error.constructor?.name && error.constructor.name !== "Object" ? error.constructor.name : "Error";
  const name = error.name && error.name !== "Error" ? error.name : constructorName;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code) ? `${name} ${code}` : name;
}

/**
 * The stored, member-visible message of an error that failed a step. Errors made to be shown
 * (AppError, and LlmError whose messages this app writes) keep their message; anything else is
 * "<class>: <first words of its message>" with paths and code excerpts removed.
 */
export function stepErrorMessage(error: unknown): string {
  if (isAppError(error) || (error instanceof Error && error.name === "LlmError")) {
    return truncate(error.message.replace(CONTROL, " ").replace(/\s+/g, " ").trim(), MAX_MESSAGE_CHARS);
  }
  if (error instanceof Error) {
    const message = withoutServerDetails(error.message, 200);
    return `${errorClass(error)}: ${message || "no message"} (details are in the worker log)`;
  }
  return `Error: ${withoutServerDetails(String(error), 200) || "no message"} (details are in the worker log)`;
}
