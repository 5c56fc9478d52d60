import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { routeContext } from "@/testkit/testing/api-request";
import { apiRouteFiles } from "@/testkit/testing/route-source";
import { makeUser } from "@/testkit/testing/fixtures";
import { MAX_JSON_DEPTH } from "@/lib/validation/nul-bytes";
import { POST as authPost } from "../auth/[...all]/route";
import { POST as postLabelSet } from "./projects/[projectId]/label-sets/route";
import { POST as postPromptList } from "./projects/[projectId]/prompt-lists/route";
import { POST as createProjectRoute } from "./projects/route";

const apiRoot = path.resolve(import.meta.dirname);
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
const APP = "http://localhost:3000";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Every exported method of every /api/v1 route, with its URL path and its dynamic segments. */
async function allHandlers() {
  const handlers: { label: string; method: string; segments: string[]; dynamic: string[]; handler: Handler }[] = [];
  for (const file of apiRouteFiles()) {
    const relative = path.relative(apiRoot, path.dirname(file));
    const segments = relative === "" ? [] : relative.split(path.sep);
    const dynamic = segments.filter((s) => s.startsWith("[")).map((s) => s.slice(1, -1));
    const route = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) {
      if (typeof route[method] === "function")
        handlers.push({
          label: `${method} /api/v1/${segments.join("/")}`,
          method,
          segments,
          dynamic,
          handler: route[method] as Handler,
        });
    }
  }
  return handlers;
}

let key: string;
let projectId: string;
let owner: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Nul entry" })).id;
});

function call(entry: { method: string; handler: Handler }, urlPath: string, params: Record<string, string>) {
  const request = new Request(`${APP}${urlPath}`, {
    method: entry.method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(entry.method === "GET" || entry.method === "HEAD" ? {} : { "content-type": "application/json" }),
    },
    ...(entry.method === "GET" || entry.method === "HEAD" ? {} : { body: "{}" }),
  });
  return entry.handler(request, routeContext(params));
}

describe("a NUL byte where a request enters, on every /api/v1 route", () => {
  it("in any id of the path is a 404, and in any query parameter a 400 naming it, on every method of every route", async () => {
    const handlers = await allHandlers();
    expect(handlers.length).toBeGreaterThan(80);
    const answers: string[] = [];
    for (const entry of handlers) {
      // Each dynamic segment in turn holds the NUL; the others hold ids that exist or look real.
      for (const nulAt of entry.dynamic) {
        const params = Object.fromEntries(
          entry.dynamic.map((name) => [
            name,
            name === nulAt
              ? "a\u0000b"
              : name === "projectId"
                ? projectId
                : name === "pipeline"
                  ? "hallucination"
                  : "x1",
          ]),
        );
        const urlPath = `/api/v1/${entry.segments.map((s) => (s.startsWith("[") ? encodeURIComponent(params[s.slice(1, -1)]!) : s)).join("/")}`;
        const response = await call(entry, urlPath, params);
        answers.push(`${entry.label} [${nulAt}=NUL] ${response.status}`);
      }
      const params = Object.fromEntries(
        entry.dynamic.map((name) => [
          name,
          name === "projectId" ? projectId : name === "pipeline" ? "hallucination" : "x1",
        ]),
      );
      const urlPath = `/api/v1/${entry.segments.map((s) => (s.startsWith("[") ? params[s.slice(1, -1)]! : s)).join("/")}`;
      for (const query of ["runId=%00", "a%00b=1"]) {
        const response = await call(entry, `${urlPath}?${query}`, params);
        const message =
          response.status === 400 ? ((await response.json()) as { error: { message: string } }).error.message : "";
        answers.push(
          `${entry.label} ?${query} ${response.status}${response.status === 400 && !/NUL/.test(message) ? " (not about the NUL)" : ""}`,
        );
      }
    }
    const expected = answers.map((a) => a.replace(/ \d{3}.*$/, () => (a.includes("=NUL]") ? " 404" : " 400")));
    expect(answers).toEqual(expected);
    expect(await prisma.project.count({ where: { members: { some: { userId: owner.userId } } } })).toBe(1);
  }, 120_000);

  it("in a JSON body nested deeper than the limit is a 400, not a stack overflow", async () => {
    const deep = `${"[".repeat(5_000)}${"]".repeat(5_000)}`;
    const body = `{"name":"deep","extra":${deep}}`;
    const response = await createProjectRoute(
      new Request(`${APP}/api/v1/projects`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      }),
      routeContext({}) as never,
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      `nested more than ${MAX_JSON_DEPTH} levels`,
    );
    // At the limit it is read (and the schema refuses the unknown key, as it would any).
    const atLimit = `{"name":"deep","extra":${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}}`;
    const shallow = await createProjectRoute(
      new Request(`${APP}/api/v1/projects`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: atLimit,
      }),
      routeContext({}) as never,
    );
    expect(((await shallow.json()) as { error?: { message: string } }).error?.message ?? "").not.toContain("nested");
  });

  it("in an uploaded prompt list or label file is a 400 naming its line, and nothing is stored", async () => {
    const form = new FormData();
    form.set("file", new Blob(["a cat playing piano\na dog\u0000 running\n"], { type: "text/plain" }), "prompts.txt");
    const response = await postPromptList(
      new Request(`${APP}/api/v1/projects/${projectId}/prompt-lists`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form,
      }),
      routeContext({ projectId }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /prompts\.txt line 2: .*NUL/,
    );
    expect(await prisma.promptList.count({ where: { projectId } })).toBe(0);

    const labels = new FormData();
    labels.set("format", "generic");
    labels.set("name", "labels");
    labels.set("dryRun", "false");
    labels.set(
      "file",
      new Blob(["video,annotator,target,value\n1.mp4,a,verdict,1\n2.mp4,b\u0000,verdict,0\n"], { type: "text/csv" }),
      "labels.csv",
    );
    const refused = await postLabelSet(
      new Request(`${APP}/api/v1/projects/${projectId}/label-sets`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: labels,
      }),
      routeContext({ projectId }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /labels\.csv line 3: .*NUL/,
    );
    expect(await prisma.labelSet.count({ where: { projectId } })).toBe(0);
  });

  it("in better-auth's routes (update-user's name, a query, deep JSON) is a 400, and the name is unchanged", async () => {
    const signIn = await authPost(
      new Request(`${APP}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: APP },
        body: JSON.stringify({ email: owner.email, password: owner.password }),
      }),
    );
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const update = (body: string, query = "") =>
      authPost(
        new Request(`${APP}/api/auth/update-user${query}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: APP, cookie },
          body,
        }),
      );
    for (const [body, query] of [
      [JSON.stringify({ name: "a\u0000b" }), ""],
      [JSON.stringify({ name: "ok" }), "?x=%00"],
      [`{"name":"ok","image":${"[".repeat(5_000)}${"]".repeat(5_000)}}`, ""],
    ] as const) {
      const response = await update(body, query);
      expect(response.status, body.slice(0, 40) + query).toBe(400);
    }
    expect((await prisma.user.findUniqueOrThrow({ where: { id: owner.userId } })).name).toBe(owner.name);
    // A clean update still goes through.
    expect((await update(JSON.stringify({ name: "Renamed" }))).status).toBe(200);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: owner.userId } })).name).toBe("Renamed");
  });
});
