import { toNextJsHandler } from "better-auth/next-js";
import { getAuth } from "@/lib/auth/auth";
import { observed } from "@/lib/observability/http";

// better-auth's own endpoints (sign-in, sign-out, session). Sign-up is disabled in lib/auth/auth.ts.
export const GET = observed((request: Request) => toNextJsHandler(getAuth()).GET(request));

export const POST = observed((request: Request) => toNextJsHandler(getAuth()).POST(request));
