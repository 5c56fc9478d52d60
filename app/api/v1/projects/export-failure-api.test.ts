import { afterEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { EXPORT_FAILED_LINE } from "@/lib/agreement/export";
import { prisma } from "@/lib/db/prisma";
import { seedFinishedRun } from "@/testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { serveRoute, type RouteServer } from "@/testkit/testing/route-server";
import { createTestDatabase, startTestServer } from "@/testkit/testing/test-database";
import { heldByProcess, holdForProcess } from "@/lib/config/process-slot";
import { GET as getExport } from "./[projectId]/export/route";

/*
 * Each test runs on its own throw-away database, whose score table it drops before the export: the scope and
 * reviewers are read before the response starts, the batches after it, so the export fails once its response has
 * started, for real. The database is dropped (WITH FORCE) at the end.
 */
let server: RouteServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function exportOnThrowawayDatabase(format: "csv" | "jsonl", beforeRequest?: () => Promise<void>) {
  const database = await createTestDatabase(await startTestServer(), "export_failure");
  await heldByProcess<{ $disconnect(): Promise<void> }>("prisma")?.$disconnect();
  holdForProcess("prisma", undefined); // lib/db/prisma makes its client again, on this database
  process.env.DATABASE_URL = database.url;
  const owner = await makeUser();
  const { key } = await createApiKey(prisma, owner.userId, "t");
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
  await seedFinishedRun(prisma, owner, projectId, videoIds, {
    endpointName: "alpha",
    templateHash: "aaaaaaaaaaaaaaaa",
    scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 4 }],
    outcome: () => ({ verdict: true, overall: 40 }),
  });
  server = await serveRoute(getExport, () => ({ projectId }));
  await beforeRequest?.();
  // Scope and reviewers are read before the response starts; the batches after it.
  const response = await fetch(`${server.url}/api/v1/projects/${projectId}/export?format=${format}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { response, dropDatabase: database.drop };
}

async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>, text = "") {
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

describe("an export that fails part-way is not answered as complete", () => {
  it("CSV: the response is aborted after the header line", async () => {
    // The first batch, after the header line, reads the scores. (Dropping the database once the header came raced the
    // batch: on a loaded machine both rows could be read first, and the export ended complete.)
    const { response, dropDatabase } = await exportOnThrowawayDatabase("csv", async () => {
      await prisma.$executeRaw`DROP TABLE "score" CASCADE`;
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const header = new TextDecoder().decode((await reader.read()).value);
    expect(header).toMatch(/^video_id,path,/);
    await expect(readToEnd(reader)).rejects.toThrow();
    await dropDatabase();
  });

  it("JSONL: the last line is the documented error line, and nothing follows it", async () => {
    const { response: _unused, dropDatabase } = await exportOnThrowawayDatabase("jsonl", async () => {
      // JSONL has no header: its first chunk is the first batch, which reads the scores.
      await prisma.$executeRaw`DROP TABLE "score" CASCADE`;
    });
    const response = _unused;
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    // The trailer is the body's last line, whole, however loaded the machine is.
    expect(text.endsWith(EXPORT_FAILED_LINE)).toBe(true);
    expect(text.split("\n").filter(Boolean).at(-1)).toBe(EXPORT_FAILED_LINE.trimEnd());
    expect(JSON.parse(EXPORT_FAILED_LINE)).toMatchObject({ error: { code: "export_failed" } });
    await dropDatabase();
  });
});
