import { NextResponse, type NextRequest } from "next/server";
import { malformedPathResponse } from "./lib/api/malformed-path";
import { CrossOriginRequestError, isSameOriginRequest, isStateChanging } from "./lib/api/session-request-guard";
import { newNonce, pageContentSecurityPolicy } from "./lib/security/security-headers";

/**
 * Gives every page a Content-Security-Policy with a fresh script nonce. Next.js reads the nonce from
 * the request's policy header and puts it on the scripts it renders, which is why every page is
 * rendered per request (the root layout waits for the connection).
 */
export function proxy(request: NextRequest) {
  // A path that does not decode is a 400 here: past this point Next.js answers it with a plain-text 500.
  const malformed = malformedPathResponse(request.nextUrl.pathname);
  if (malformed) return malformed;
  // The API comes here only for a path with a percent-escape (see the matcher): its routes set their own headers.
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  // A POST to a page is a server action. Next.js refuses one from another origin with a 500; the API's
  // cross-site rule (lib/api/session-request-guard.ts) refuses it here first with the API's 403.
  if (isStateChanging(request) && !isSameOriginRequest(request)) {
    const refused = new CrossOriginRequestError();
    return NextResponse.json({ error: { code: refused.code, message: refused.message } }, { status: refused.status });
  }
  const policy = pageContentSecurityPolicy(newNonce(), { development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Not the API (the proxy would buffer upload bodies; next.config.ts gives it the asset policy), nor
  // static files and public/ffmpeg, which next.config.ts covers too. An API path with a percent-escape does come,
  // to be refused when the escape is malformed (no upload path has one).
  matcher: ["/((?!api/|_next/static/|_next/image|ffmpeg/).*)", "/api/(.*%.*)"],
};
