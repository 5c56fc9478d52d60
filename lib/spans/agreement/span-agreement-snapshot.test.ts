/**
 * Stored span agreement reports: a new process (a fresh module, nothing kept in memory) answers from the snapshot an
 * earlier one stored, matching again only the videos written since, and its report equals one computed afresh. A
 * snapshot that cannot be read, or of another format, is computed afresh; two writers of one scope leave the later
 * revision; a project holds at most SNAPSHOTS_PER_PROJECT; a deleted project takes its snapshots along.
 */
import v8 from "node:v8";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import {
  catalogue,
  freshReport,
  keptReportProject,
  label,
  query,
  spanRowIn,
} from "../../../testkit/spans/kept-report-project";
import { keptReportKey } from "./span-agreement-cache";
import {
  SNAPSHOTS_PER_PROJECT,
  SNAPSHOT_FORMAT,
  packed,
  readSnapshot,
  unpacked,
  writeSnapshot,
} from "./span-agreement-snapshot";

const options = { iterations: 50 };

let owner: Actor;
let bob: Actor;
let projectId: string;
let videoIds: string[];

beforeAll(async () => {
  let ann: Actor;
  ({ owner, ann, bob, projectId, videoIds } = await keptReportProject(prisma, "Stored span agreement"));
  const [v0, v1, v2] = videoIds as [string, string, string];
  await prisma.span.createMany({
    data: [
      spanRowIn(projectId, v0, ann, 0, 9),
      spanRowIn(projectId, v1, ann, 10, 19),
      spanRowIn(projectId, v2, ann, 0, 4),
      spanRowIn(projectId, v0, bob, 0, 9),
      spanRowIn(projectId, v1, bob, 12, 19),
      spanRowIn(projectId, v2, bob, 20, 24),
    ],
  });
});

/** The loader as a new process has it: a fresh module, with no report kept in memory. */
async function newProcess() {
  vi.resetModules();
  return import("./load-span-agreement");
}

async function reportIn(loader: Awaited<ReturnType<typeof newProcess>>, project = projectId) {
  const access = await projectAccess(prisma, owner, project, "export.read");
  return loader.spanAgreementReport(prisma, access, query, catalogue, options);
}

/** The report computed afresh from the database, with nothing kept. */
const fresh = () => freshReport(prisma, owner, projectId, options);

const scopeKey = () => keptReportKey({ projectId, task: "hallucination", runId: null }, null, options);

describe("stored span agreement reports", () => {
  it("stores a value's Sets, Maps, strings and typed arrays as they are, each string once", async () => {
    const value = {
      revision: "12",
      marked: new Map([
        ["ann", new Set(["v1", "v2\nwith a newline"])],
        ["bob", new Set<string>()],
      ]),
      frames: new Map([
        ["v1", 30],
        ["v2\nwith a newline", 60],
      ]),
      generators: new Map<string, string | null>([["v1", null]]),
      ids: ["v1", "v2\nwith a newline"],
      none: [] as string[],
      mixed: new Set<unknown>(["v1", 2, { deep: new Set(["v1"]) }]),
      byNumber: new Map([[1, ["x"]]]),
      rows: { videos: Int32Array.of(0, 1), rows: Float64Array.of(0.5, NaN, -0) },
      stats: { value: null, ci: undefined, label: "ann" },
    };
    const bytes = await packed(value);
    expect(await unpacked(bytes)).toEqual(value);
    // One Set held in two places is one Set again.
    const shared = new Set(["v1"]);
    const back = (await unpacked(
      await packed({ marked: new Map([["ann", shared]]), coverage: new Map([["ann", shared]]) }),
    )) as {
      marked: Map<string, Set<string>>;
      coverage: Map<string, Set<string>>;
    };
    expect(back.coverage.get("ann")).toEqual(shared);
    expect(back.coverage.get("ann")).toBe(back.marked.get("ann"));
    // Each video id appears in five places of the value, and once in what is stored.
    const stored = v8.deserialize(gunzipSync(bytes)) as { strings: string[] };
    expect(stored.strings.filter((x) => x === "v1")).toHaveLength(1);
    expect(stored.strings.filter((x) => x === "v2\nwith a newline")).toHaveLength(1);
    expect(new Set(stored.strings).size).toBe(stored.strings.length);
  });

  it("lets a new process answer from the stored report, and match only the videos written since", async () => {
    const first = await reportIn(await newProcess());
    expect(first).toMatchObject({ how: "computed", keptIn: null });
    await first.stored;

    const restarted = await reportIn(await newProcess());
    expect(restarted).toMatchObject({ how: "kept", keptIn: "database", videosMatched: 0 });
    expect(restarted.report).toEqual(first.report);
    await restarted.stored;

    const bobs = await prisma.span.findFirstOrThrow({
      where: { projectId, authorId: bob.userId, videoId: videoIds[1] },
    });
    await prisma.span.update({ where: { id: bobs.id }, data: { startFrame: 25, endFrame: 29 } });
    const afterWrite = await reportIn(await newProcess());
    expect(afterWrite).toMatchObject({ how: "rematched", keptIn: "database", videosMatched: 1 });
    expect(afterWrite.report).toEqual(await fresh());
    expect(afterWrite.report).not.toEqual(first.report);
    await afterWrite.stored;
    // The rematched report is stored in its turn, at the new revision: the next process keeps it as it is.
    const again = await reportIn(await newProcess());
    expect(again).toMatchObject({ how: "kept", keptIn: "database" });
    expect(again.report).toEqual(afterWrite.report);
  });

  it("cuts a new process's first report of one label from the stored report of every label", async () => {
    await (
      await reportIn(await newProcess())
    ).stored;
    const loader = await newProcess();
    const access = await projectAccess(prisma, owner, projectId, "export.read");
    const ofLabel = await loader.spanAgreementReport(prisma, access, { ...query, label }, catalogue, options);
    expect(ofLabel).toMatchObject({ how: "cut", keptIn: "database" });
    expect(ofLabel.report).toEqual(await freshReport(prisma, owner, projectId, options, label));
    await ofLabel.stored;
    // Stored in its turn under the label's scope: the next process keeps it as it is.
    const again = await (
      await newProcess()
    ).spanAgreementReport(prisma, access, { ...query, label }, catalogue, options);
    expect(again).toMatchObject({ how: "kept", keptIn: "database" });
  });

  it("computes afresh, and stores anew, when the snapshot cannot be read or is of another format", async () => {
    await (
      await reportIn(await newProcess())
    ).stored;
    const where = { projectId_scope: { projectId, scope: scopeKey() } };
    await prisma.spanAgreementSnapshot.update({ where, data: { payload: new Uint8Array([1, 2, 3]) } });
    const corrupt = await reportIn(await newProcess());
    expect(corrupt).toMatchObject({ how: "computed", keptIn: null });
    expect(corrupt.report).toEqual(await fresh());
    await corrupt.stored;
    expect((await prisma.spanAgreementSnapshot.findUniqueOrThrow({ where })).payload.length).toBeGreaterThan(3);

    await prisma.spanAgreementSnapshot.update({ where, data: { format: "span-agreement-0 v8-1.0" } });
    const older = await reportIn(await newProcess());
    expect(older).toMatchObject({ how: "computed", keptIn: null });
    await older.stored;
    expect(await prisma.spanAgreementSnapshot.findUniqueOrThrow({ where })).toMatchObject({ format: SNAPSHOT_FORMAT });
  });

  it("keeps the later revision when two writers store one scope at once", async () => {
    const key = { projectId, scope: "two writers" };
    await Promise.all([
      writeSnapshot(prisma, key, "7", { from: "later" }),
      writeSnapshot(prisma, key, "5", { from: "earlier" }),
    ]);
    expect(await readSnapshot(prisma, key)).toEqual({ from: "later" });
    await writeSnapshot(prisma, key, "6", { from: "late earlier" });
    expect(await readSnapshot(prisma, key)).toEqual({ from: "later" });
    await writeSnapshot(prisma, key, "7", { from: "same revision" });
    expect(await readSnapshot(prisma, key)).toEqual({ from: "same revision" });
  });

  it("holds a project's most recently written snapshots alone, and goes with the project", async () => {
    const { projectId: other } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    for (let i = 0; i <= SNAPSHOTS_PER_PROJECT; i++)
      await writeSnapshot(prisma, { projectId: other, scope: `scope ${i}` }, "1", { i });
    const scopes = await prisma.spanAgreementSnapshot.findMany({
      where: { projectId: other },
      select: { scope: true },
    });
    expect(scopes.map((s) => s.scope).sort()).toEqual(
      Array.from({ length: SNAPSHOTS_PER_PROJECT }, (_, i) => `scope ${i + 1}`).sort(),
    );
    expect(await readSnapshot(prisma, { projectId: other, scope: "scope 0" })).toBeNull();
    await prisma.project.delete({ where: { id: other } });
    expect(await prisma.spanAgreementSnapshot.count({ where: { projectId: other } })).toBe(0);
  });
});
