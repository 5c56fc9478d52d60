import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { createApiKey } from "../auth/api-keys";
import { createAuth } from "../auth/auth";
import { createUser } from "../auth/users";
import { decryptSecret } from "../crypto/secret-box";
import { databaseUrl, startEmbeddedPostgres, type EmbeddedServer } from "../db/embedded-postgres";
import { createPrismaClient } from "../db/prisma";
import { createEndpoint, endpointConfigForRun } from "../judge/endpoints/endpoints";

import { createRun } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { getStorage } from "../storage/storage";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createTestDatabase } from "../../testkit/testing/test-database";
import { tablesWithColumns } from "./backup";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const PASSWORD = "correct horse battery";
const work = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-backup-test-"));
// Reachable by the postgres OS user, so a root-run test keeps the restored cluster in DATA_DIR.
fs.chmodSync(work, 0o755);
const archive = path.join(work, "backup.tar");
const sourceDataDir = path.join(work, "source-data");
const targetDataDir = path.join(work, "restored-data");

let source: Awaited<ReturnType<typeof createTestDatabase>>;
let sourcePrisma: PrismaClient;
let stub: StubServer;
let restoredServer: EmbeddedServer | null = null;
let restoredPrisma: PrismaClient | null = null;

beforeAll(async () => {
  source = await createTestDatabase({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "backup_src");
  sourcePrisma = createPrismaClient(source.url);
  stub = await startStubLlm();
  // The source installation keeps its secret in DATA_DIR/secret (what the endpoint key is encrypted with).
  fs.mkdirSync(sourceDataDir, { recursive: true });
  fs.writeFileSync(path.join(sourceDataDir, "secret"), process.env.APP_SECRET!, { mode: 0o600 });
});
afterAll(async () => {
  await restoredPrisma?.$disconnect();
  await restoredServer?.stop();
  await sourcePrisma?.$disconnect();
  await source?.drop();
  await stub?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs an npm script's entry as its own process; resolves with its exit code and output. */
function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts", script), ...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** The environment of a FrameJury process: no inherited database, secret or storage unless given. */
function envFor(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "APP_SECRET", "STORAGE_DIR", "STORAGE_URL", "DATA_DIR", "TEST_DATABASE_URL"])
    delete env[name];
  return { ...env, ...extra };
}

async function rowCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const table of await tablesWithColumns(client)) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(table.schema)}.${pg.escapeIdentifier(table.name)}`,
      );
      counts[`${table.schema}.${table.name}`] = rows[0]!.n;
    }
    return counts;
  } finally {
    await client.end();
  }
}

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

describe("npm run backup and npm run restore", () => {
  it(
    "restore a seeded project into a fresh DATA_DIR with identical row counts, its files, its secret and a working login",
    { timeout: 180_000 },
    async () => {
      const user = await createUser(sourcePrisma, { email: "owner@backup.test", password: PASSWORD, isAdmin: true });
      await createUser(sourcePrisma, { email: "reviewer@backup.test", password: PASSWORD, isAdmin: false });
      const owner = { userId: user.id, email: user.email, name: user.name, isAdmin: true };
      await createApiKey(sourcePrisma, user.id, "kept");
      const { projectId, videoIds } = await projectWithFramedVideos(sourcePrisma, owner, {
        videoCount: 2,
        keyFrames: 2,
      });
      // The videos' own files, as an import stores them.
      const videos = await sourcePrisma.video.findMany({ where: { id: { in: videoIds } } });
      for (const video of videos) await getStorage().put(video.storageKey, Buffer.from(`video bytes of ${video.id}`));
      const endpoint = await createEndpoint(
        sourcePrisma,
        await projectAccess(sourcePrisma, owner, projectId, "endpoints.manage"),
        {
          name: "stub",
          baseUrl: stub.baseURL,
          model: "stub-vision",
          apiKey: "sk-restore-test",
          imageDetail: "low",
          temperature: 0,
          maxConcurrency: 4,
          requestsPerMinute: null,
          timeoutSeconds: 30,
          structuredOutput: true,
          pricePer1kInput: 0.01,
          pricePer1kOutput: 0.01,
        },
      );
      const deps = testJudgeDeps({
        prisma: sourcePrisma,
        endpointConfig: (runId) => endpointConfigForRun(sourcePrisma, runId),
      });
      const run = await createRun(
        { prisma: sourcePrisma, queue: inlineJudgeQueue(deps), pipelines: builtInCatalogue().pipelines },
        await projectAccess(sourcePrisma, owner, projectId, "runs.manage"),
        { pipeline: "hallucination", endpointId: endpoint.id },
      );
      expect((await sourcePrisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
      const sourceCounts = await rowCounts(source.url);
      expect(sourceCounts["public.step_result"]).toBeGreaterThan(0);
      expect(sourceCounts["public.llm_call"]).toBeGreaterThan(0);

      const backup = await runScript(
        "backup.ts",
        ["--out", archive],
        envFor({ DATABASE_URL: source.url, DATA_DIR: sourceDataDir, STORAGE_DIR: process.env.STORAGE_DIR }),
      );
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toContain("secret included");

      const restore = await runScript("restore.ts", ["--in", archive], envFor({ DATA_DIR: targetDataDir }));
      expect(restore.code, restore.output).toBe(0);

      restoredServer = await startEmbeddedPostgres({ dir: path.join(targetDataDir, "postgres") });
      const restoredUrl = databaseUrl(restoredServer.baseUrl, "framejury");
      // Identical row counts in every table (pg-boss's tables are not the app's and are made anew).
      expect(await rowCounts(restoredUrl)).toEqual(sourceCounts);

      restoredPrisma = createPrismaClient(restoredUrl);
      // The secret came along, so the endpoint's key still decrypts.
      const restoredSecret = fs.readFileSync(path.join(targetDataDir, "secret"), "utf8");
      expect(restoredSecret).toBe(process.env.APP_SECRET);
      expect(fs.statSync(path.join(targetDataDir, "secret")).mode & 0o777).toBe(0o600);
      const restoredEndpoint = await restoredPrisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(decryptSecret(restoredEndpoint.apiKeyEncrypted!, restoredSecret)).toBe("sk-restore-test");

      // Every stored file the restored rows point at is there, byte for byte.
      const storage = path.join(targetDataDir, "storage", "objects");
      const frames = await restoredPrisma.frame.findMany({ where: { frameSet: { videoId: { in: videoIds } } } });
      expect(frames.length).toBe(2 * 2 * 3);
      for (const frame of frames) expect(sha256(path.join(storage, frame.storageKey))).toBe(frame.sha256);
      for (const video of videos)
        expect(fs.readFileSync(path.join(storage, video.storageKey), "utf8")).toBe(`video bytes of ${video.id}`);

      // Signing in through the auth library against the restored database works, and a wrong password does not.
      const auth = createAuth(restoredPrisma);
      const signedIn = await auth.api.signInEmail({ body: { email: "owner@backup.test", password: PASSWORD } });
      expect(signedIn.user.id).toBe(user.id);
      expect(signedIn.token).toBeTruthy();
      await expect(
        auth.api.signInEmail({ body: { email: "owner@backup.test", password: "wrong password here" } }),
      ).rejects.toThrow();

      // A second restore into this DATA_DIR is refused, and changes nothing.
      const again = await runScript("restore.ts", ["--in", archive], envFor({ DATA_DIR: targetDataDir }));
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/not empty|exists already/);
      const afterRefusal = await rowCounts(restoredUrl);
      expect(afterRefusal["public.user"]).toBe(sourceCounts["public.user"]);
      expect(afterRefusal["public.session"]).toBe(sourceCounts["public.session"]! + 1);
    },
  );
});
