/**
 * The browser's client of /api/v1: `apiFetch` reads the JSON answer or throws an `ApiError` with the server's
 * error code and message; `postJson` sends a JSON body. Plain fetch, no React: used by every client component.
 */
/** A failed API call, with the server's error code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export async function apiFetch<T>(input: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(input, init);
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `Request failed (${response.status}).`,
      body,
    );
  }
  return body as T;
}

export function postJson<T>(input: string, body: unknown, init: RequestInit = {}): Promise<T> {
  return apiFetch<T>(input, {
    ...init,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
