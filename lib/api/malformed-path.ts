/**
 * A request whose path does not decode (a broken percent-escape such as `%A` at its end, or escapes that spell no
 * UTF-8): Next.js would answer it with a plain-text 500 from deep in its routing, so the proxy answers it first.
 */

/** Why the path cannot be read, or null when it decodes. */
export function malformedPathReason(pathname: string): string | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    return "The address has a malformed percent-escape (a % not followed by two hex digits, or escapes that are not UTF-8).";
  }
}

/**
 * The 400 for a path that does not decode: the API's JSON error shape under /api/, plain text elsewhere; null when the
 * path decodes.
 */
export function malformedPathResponse(pathname: string): Response | null {
  const reason = malformedPathReason(pathname);
  if (reason === null) return null;
  if (pathname === "/api" || pathname.startsWith("/api/"))
    return Response.json({ error: { code: "invalid_request", message: reason } }, { status: 400 });
  return new Response(`${reason}\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}
