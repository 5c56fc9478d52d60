import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH_BODY_LIMIT, JSON_BODY_LIMIT } from "@/lib/api/request-body";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { apiRouteFiles } from "@/testkit/testing/route-source";
import { POST as authPost } from "../auth/[...all]/route";

const APP = "http://localhost:3000";
const CHUNK = 64 * 1024;

/**
 * A chunked body four times the limit: it counts the bytes the server pulled from it, so a test sees the reader stop
 * once the limit is counted. (It ends rather than growing forever so that a reader that reads a body whole fails
 * the test instead of filling the machine's memory.)
 */
function largeBody(limit: number) {
  const counter = { pulled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x20); // spaces: valid inside JSON, never a NUL
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= 4 * limit) return controller.close();
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

function post(url: string, body: BodyInit, headers: Record<string, string>): Request {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", origin: APP, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

async function expectTooLarge(response: Response, limitWords: string) {
  expect(response.status).toBe(413);
  const { error } = (await response.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe("too_large");
  expect(error.message).toContain(limitWords);
}

describe("better-auth's routes read at most 1 MiB of a body", () => {
  for (const route of ["sign-in/email", "no-such-path"]) {
    it(`/api/auth/${route}: a Content-Length over the limit is a 413 naming it, the body unread`, async () => {
      const { stream, counter } = largeBody(AUTH_BODY_LIMIT);
      const response = await authPost(
        post(`${APP}/api/auth/${route}`, stream, { "content-length": String(300 * 1024 * 1024) }),
      );
      await expectTooLarge(response, "1 MiB");
      // The stream may have filled its one-chunk queue when made; nothing more was asked of it.
      expect(counter.pulled).toBeLessThanOrEqual(CHUNK);
    });

    it(`/api/auth/${route}: a chunked body is cut off once the bytes counted pass the limit`, async () => {
      const { stream, counter } = largeBody(AUTH_BODY_LIMIT);
      const response = await authPost(post(`${APP}/api/auth/${route}`, stream, {}));
      await expectTooLarge(response, "1 MiB");
      expect(counter.pulled).toBeGreaterThan(AUTH_BODY_LIMIT);
      expect(counter.pulled).toBeLessThanOrEqual(AUTH_BODY_LIMIT + 3 * CHUNK);
    });
  }

  it("a body within the limit still reaches better-auth", async () => {
    const response = await authPost(
      post(
        `${APP}/api/auth/sign-in/email`,
        JSON.stringify({ email: "nobody@example.com", password: "x".repeat(20) }),
        {},
      ),
    );
    expect(response.status).toBe(401);
  });
});

describe("/api/v1 JSON bodies are bounded", () => {
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    const owner = await makeUser();
    key = (await createApiKey(prisma, owner.userId, "t")).key;
    projectId = (await createProject(prisma, owner, { name: "Bounded bodies" })).id;
  });

  it("POST /api/v1/projects: a Content-Length over 4 MiB, or a chunked body past it, is a 413 naming the limit", async () => {
    const { POST } = await import("./projects/route");
    const declared = largeBody(JSON_BODY_LIMIT);
    const byLength = await POST(
      post(`${APP}/api/v1/projects`, declared.stream, {
        authorization: `Bearer ${key}`,
        "content-length": String(JSON_BODY_LIMIT + 1),
      }),
      routeContext({}),
    );
    await expectTooLarge(byLength, "4 MiB");
    expect(declared.counter.pulled).toBeLessThanOrEqual(CHUNK);

    const chunked = largeBody(JSON_BODY_LIMIT);
    const byCount = await POST(
      post(`${APP}/api/v1/projects`, chunked.stream, { authorization: `Bearer ${key}` }),
      routeContext({}),
    );
    await expectTooLarge(byCount, "4 MiB");
    expect(chunked.counter.pulled).toBeLessThanOrEqual(JSON_BODY_LIMIT + 3 * CHUNK);
  });

  it("every project route whose wrapper reads a JSON body cuts a larger one off at its limit", async () => {
    const apiRoot = path.resolve(import.meta.dirname);
    const refused: string[] = [];
    const answered: string[] = [];
    for (const file of apiRouteFiles()) {
      const segments = path.relative(apiRoot, path.dirname(file)).split(path.sep);
      const dynamic = segments.filter((s) => s.startsWith("["));
      if (dynamic.length > 1 || (dynamic.length === 1 && dynamic[0] !== "[projectId]")) continue;
      const route = (await import(file)) as Record<string, unknown>;
      for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
        const handler = route[method] as
          (Handler & { apiRoute?: { body?: { kind: string; maxBytes?: number } } }) | undefined;
        if (!handler || handler.apiRoute?.body?.kind !== "json") continue;
        const { stream } = largeBody(handler.apiRoute.body.maxBytes ?? JSON_BODY_LIMIT);
        const url = `${APP}/api/v1/${segments.join("/").replace("[projectId]", projectId)}`;
        const request = new Request(url, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: stream,
          duplex: "half",
        } as RequestInit);
        const response = await handler(request, routeContext({ projectId }));
        const label = `${method} ${url.slice(APP.length)}`;
        (response.status === 413 ? refused : answered).push(`${label} → ${response.status}`);
      }
    }
    expect(answered).toEqual([]);
    expect(refused.length).toBeGreaterThan(10);
  });
});

describe("every request body is read through the bounded readers", () => {
  it("no server code reads a request body whole (request.json(), .text(), .formData(), .arrayBuffer(), .blob())", async () => {
    const { execFileSync } = await import("node:child_process");
    let found = "";
    try {
      const pattern = "\\b(request|req)\\.(clone\\(\\)\\.)?(json|text|formData|arrayBuffer|blob)\\(";
      found = execFileSync(
        "grep",
        [
          "-rnE",
          "--include=*.ts",
          "--include=*.tsx",
          "--exclude=*.test.ts",
          "--exclude=*.test.tsx",
          pattern,
          "app",
          "lib",
          "proxy.ts",
        ],
        { encoding: "utf8" },
      );
    } catch {
      // grep exits 1 when nothing matches
    }
    // guarded-fetch.ts reads a request the app itself builds to send out (to a judge endpoint, a webhook), not one it
    // received.
    const OUTGOING = ["lib/judge/calls/guarded-fetch.ts:"];
    const lines = found
      .split("\n")
      .filter(Boolean)
      .filter((line) => !OUTGOING.some((file) => line.startsWith(file)));
    expect(lines).toEqual([]);
  });
});
