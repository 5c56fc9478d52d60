import { beforeEach, describe, expect, it } from "vitest";
import { GET as getProject } from "@/app/api/v1/projects/[projectId]/route";
import { GET as getHealth } from "@/app/api/health/route";
import { createApiKey } from "../auth/api-keys";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { observed, requestIdFrom, routePattern } from "./http";
import { logLevelFromEnv } from "./logger";
import { setLogDestination } from "../../testkit/testing/log-lines";

let lines: Record<string, unknown>[] = [];
beforeEach(() => {
  lines = [];
  setLogDestination({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }, "info");
});

const requestLines = () => lines.filter((line) => line.msg === "request" || line.msg === "request failed");

describe("request ids", () => {
  it("keeps a sane incoming X-Request-Id and replaces anything else", () => {
    expect(requestIdFrom(new Headers({ "x-request-id": "lb-7f3a9c21.0001" }))).toBe("lb-7f3a9c21.0001");
    for (const insane of ["short", "has spaces in it", "x".repeat(129), 'quote"d-123456', "new\nline-123456"]) {
      const id = requestIdFrom(new Headers({ "x-request-id": insane.replace("\n", " ") }));
      expect(id).not.toContain(" ");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdFrom(new Headers())).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("route patterns", () => {
  it("names parameters instead of ids, catch-alls included", () => {
    expect(routePattern("/api/v1/projects/p1/videos", { projectId: "p1" })).toBe("/api/v1/projects/[projectId]/videos");
    expect(routePattern("/api/v1/queues/q1/items/i1/submit", { id: "q1", itemId: "i1" })).toBe(
      "/api/v1/queues/[id]/items/[itemId]/submit",
    );
    expect(routePattern("/api/auth/sign-in/email", { all: ["sign-in", "email"] })).toBe("/api/auth/[...all]");
    expect(routePattern("/api/health", {})).toBe("/api/health");
  });
});

describe("one JSON log line per API request", () => {
  it("logs method, route, path, status, duration, request id and caller, and returns the id", async () => {
    const user = await makeUser();
    const { key } = await createApiKey(prisma, user.userId, "log test");
    const project = await createProject(prisma, user, { name: "Logged" });
    const response = await getProject(
      new Request(`http://localhost:3000/api/v1/projects/${project.id}`, {
        headers: { authorization: `Bearer ${key}`, "x-request-id": "client-req-0042" },
      }),
      {
        params: Promise.resolve({ projectId: project.id }),
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("client-req-0042");
    expect(requestLines()).toHaveLength(1);
    const [line] = requestLines();
    expect(line).toMatchObject({
      level: "info",
      requestId: "client-req-0042",
      method: "GET",
      route: "/api/v1/projects/[projectId]",
      path: `/api/v1/projects/${project.id}`,
      status: 200,
      userId: user.userId,
      via: "api_key",
    });
    expect(typeof line!.durationMs).toBe("number");
    expect(typeof line!.time).toBe("string");
  });

  it("generates an id when none is sent, and logs a refused request with its status", async () => {
    const response = await getProject(new Request("http://localhost:3000/api/v1/projects/nope"), {
      params: Promise.resolve({ projectId: "nope" }),
    });
    expect(response.status).toBe(401);
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines()).toEqual([
      expect.objectContaining({ requestId: id, status: 401, route: "/api/v1/projects/[projectId]" }),
    ]);
  });

  it("puts the request id on what the handler logs, and logs a thrown error at error level", async () => {
    const failing = observed(async () => {
      throw new Error("boom in handler");
    });
    await expect(
      failing(new Request("http://localhost:3000/api/v1/broken", { headers: { "x-request-id": "trace-failing-1" } })),
    ).rejects.toThrow("boom");
    expect(requestLines()).toEqual([
      expect.objectContaining({ level: "error", requestId: "trace-failing-1", status: 500, msg: "request failed" }),
    ]);
    expect((requestLines()[0]!.err as { message: string }).message).toBe("boom in handler");
  });

  it("logs health checks at debug level only (LOG_LEVEL=debug shows them)", async () => {
    const response = await getHealth(new Request("http://localhost:3000/api/health"));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(requestLines()).toEqual([]);
    expect(logLevelFromEnv("debug")).toBe("debug");
    expect(logLevelFromEnv("LOUD")).toBe("info");
    expect(logLevelFromEnv("")).toBe("info");
  });
});
