import { toNextJsHandler } from "better-auth/next-js";
import { guardedAuthRequest } from "@/lib/api/auth-request-guard";
import { getAuth } from "@/lib/auth/auth";
import { observed } from "@/lib/observability/http";

// better-auth's own endpoints (sign-in, sign-out, session). Sign-up is disabled in lib/auth/auth.ts.
// Their input is bounded and gets the NUL-byte and nesting checks every /api/v1 route has (lib/api/auth-request-guard.ts).
export const GET = observed(async (request: Request) => {
  const guarded = await guardedAuthRequest(request);
  return guarded instanceof Response ? guarded : toNextJsHandler(getAuth()).GET(guarded);
});

export const POST = observed(async (request: Request) => {
  const guarded = await guardedAuthRequest(request);
  return guarded instanceof Response ? guarded : toNextJsHandler(getAuth()).POST(guarded);
});
