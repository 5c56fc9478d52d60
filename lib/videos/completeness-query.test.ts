/**
 * The completeness report computed in PostgreSQL against the reference it replaces on the request path
 * (`completenessReport`, testkit/import/completeness-report.ts, run here over the same lists and videos): every count, and
 * every list, page by page, in the same order.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { completenessReport } from "../../testkit/import/completeness-report";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { completenessFromDatabase } from "./completeness-query";
import { promptIndexForProject } from "./describe-imported-video";
import { deletePromptList, savePromptList } from "./prompt-list-store";
import { getStorage } from "../storage/storage";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import { projectAccess } from "../authz/permissions";

const LONG = `A long prompt ${"that keeps going ".repeat(14)}and ends here.`;
const P = ["A ball rolls.", "A cup falls.", "A leaf floats.", "A door swings.", "Colours mix.", "Señor waves."];

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

/** Lists stored as the app stores them: each entry a row with its match keys (prompt-list-entries.ts). */
async function addList(projectId: string, name: string, entries: { prompt: string; dimensions: string[] }[]) {
  return savePromptList(
    { prisma, storage: getStorage() },
    await projectAccess(prisma, owner, projectId, "videos.import"),
    name,
    JSON.stringify(entries.map(({ prompt, dimensions }) => ({ prompt, dimension: dimensions }))),
  );
}

async function addVideo(
  projectId: string,
  relativePath: string,
  prompt: string | null,
  sampleIndex: number | null,
  dimensions: string[],
  model: string | null = null,
) {
  await createReadyVideo(prisma, {
    projectId,
    relativePath,
    prompt,
    sampleIndex,
    dimensions,
    model,
    createdById: owner.userId,
  });
}

async function reference(projectId: string, model?: string) {
  const [promptIndex, videos] = await Promise.all([
    promptIndexForProject(prisma, projectId),
    prisma.video.findMany({
      where: { projectId },
      select: { relativePath: true, prompt: true, dimensions: true, sampleIndex: true, model: true },
    }),
  ]);
  return completenessReport({ promptIndex, videos, model });
}

/** The database's report against the reference: every count, and every list on one page. */
async function expectAsReference(projectId: string, model?: string) {
  const expected = await reference(projectId, model);
  const got = await completenessFromDatabase(prisma, projectId, { page: 1, pageSize: 1000, model });
  expect(got.totals).toEqual(expected.totals);
  expect(got.generators).toEqual(expected.generators);
  expect(got.dimensions).toEqual(
    expected.dimensions.map(({ missing, unexpected, unmatched, ...row }) => ({
      ...row,
      missing: missing.length,
      unexpected: unexpected.length,
      unmatched: unmatched.length,
    })),
  );
  expect(got.missing.items).toEqual(expected.dimensions.flatMap((row) => row.missing));
  expect(got.unexpected.items).toEqual(expected.dimensions.flatMap((row) => row.unexpected));
  return got;
}

describe("completenessFromDatabase", () => {
  it("counts and lists what the reference does, for every kind of sample", async () => {
    const projectId = (await createProject(prisma, owner, { name: "Completeness in SQL" })).id;
    await addList(
      projectId,
      "mechanics.json",
      [P[0]!, P[1]!, P[2]!, LONG].map((prompt) => ({ prompt, dimensions: ["Mechanics"] })),
    );
    // A later list: the same prompt in another dimension (merged), one with no dimension, a Diversity prompt
    // (20 samples), and an NFD spelling of a prompt (merged with the first spelling).
    await addList(projectId, "more.json", [
      { prompt: P[0]!, dimensions: ["Material"] },
      { prompt: P[3]!, dimensions: [] },
      { prompt: P[4]!, dimensions: ["Diversity"] },
      { prompt: P[5]!, dimensions: ["Mechanics"] },
    ]);
    await addList(projectId, "nfd.json", [{ prompt: P[5]!.normalize("NFD"), dimensions: ["Material"] }]);

    await addVideo(projectId, `Mechanics/${P[0]}-0.mp4`, P[0]!, 0, ["Mechanics"]); // counted
    await addVideo(projectId, `other/${P[0]}-0.mp4`, P[0]!, 0, ["Mechanics"]); // the same sample: a duplicate of the first by path
    await addVideo(projectId, `Mechanics/${P[0]}-5.mp4`, P[0]!, 5, ["Mechanics"]); // out of range
    await addVideo(projectId, `Material/${P[0]}-1.mp4`, P[0]!, 1, ["Material", "Diversity"]); // counted in Material; not in Diversity's prompts
    await addVideo(projectId, `Mechanics/${P[1]}-4.mp4`, P[1]!, 4, ["Mechanics", "Diversity"]); // 4 < 20: neither counted nor flagged in Mechanics
    await addVideo(projectId, `Mechanics/${P[2]}.mp4`, P[2]!, null, ["Mechanics"]); // no sample index
    await addVideo(projectId, `Mechanics/${LONG.slice(0, 180)}-2.mp4`, LONG.slice(0, 180), 2, ["Mechanics"]); // a truncated name
    await addVideo(projectId, `Diversity/${P[4]}-17.mp4`, `${P[4]}  `, 17, ["Diversity"]); // trailing spaces
    await addVideo(projectId, `Mechanics/${P[5]}-0.mp4`, P[5]!.normalize("NFD"), 0, ["Mechanics"]); // NFD
    await addVideo(projectId, `flat/${P[3]}-0.mp4`, P[3]!, 0, []); // no dimension, counted there
    await addVideo(projectId, `typed/${P[2]}-1.mp4`, P[2]!, 1, ["mechanics ", "MATERIAL"]); // dimensions typed by hand: Mechanics, Material
    await addVideo(projectId, `flat/${P[3]}-1.mp4`, P[3]!, 1, ["Mechanics"]); // not a Mechanics prompt
    await addVideo(projectId, "Mechanics/Nothing like it-0.mp4", "Nothing like it", 0, ["Mechanics"]); // unmatched
    await addVideo(projectId, "loose/12.mp4", null, null, []); // unmatched, no dimension

    const expected = await reference(projectId);
    const all = await completenessFromDatabase(prisma, projectId, { page: 1, pageSize: 1000 });
    expect(all.totals).toEqual(expected.totals);
    expect(all.dimensions).toEqual(
      expected.dimensions.map(({ missing, unexpected, unmatched, ...row }) => ({
        ...row,
        missing: missing.length,
        unexpected: unexpected.length,
        unmatched: unmatched.length,
      })),
    );
    const missing = expected.dimensions.flatMap((row) => row.missing);
    const unexpected = expected.dimensions.flatMap((row) => row.unexpected);
    expect(all.missing).toEqual({ page: 1, pageSize: 1000, total: missing.length, items: missing });
    expect(all.unexpected).toEqual({ page: 1, pageSize: 1000, total: unexpected.length, items: unexpected });
    expect(all.unmatched).toEqual({ page: 1, pageSize: 1000, total: 2, items: expected.unmatched });
    // Each kind is there, so the comparison means something.
    expect(new Set(unexpected.map((u) => u.reason))).toEqual(
      new Set(["duplicate_sample", "index_out_of_range", "prompt_not_in_dimension", "no_sample_index"]),
    );
    expect(all.totals).toMatchObject({ videos: 14, present: 7, unmatched: 2 });

    // A page is that slice of each list, and the counts stay whole.
    const page = await completenessFromDatabase(prisma, projectId, { page: 2, pageSize: 4 });
    expect(page.totals).toEqual(expected.totals);
    expect(page.missing).toEqual({ page: 2, pageSize: 4, total: missing.length, items: missing.slice(4, 8) });
    expect(page.unexpected.items).toEqual(unexpected.slice(4, 8));
    expect(page.unmatched.items).toEqual([]);
  });

  it("pages the missing samples as the reference lists them, from any page on, around present samples", async () => {
    const projectId = (await createProject(prisma, owner, { name: "Completeness pages" })).id;
    const prompts = Array.from({ length: 30 }, (_, i) => `Prompt ${String(i).padStart(2, "0")} of the walk.`);
    await addList(
      projectId,
      "mechanics.json",
      prompts.map((prompt) => ({ prompt, dimensions: ["Mechanics"] })),
    );
    await addList(projectId, "flat.json", [
      { prompt: "Flat one.", dimensions: [] },
      { prompt: "Flat two.", dimensions: [] },
    ]);
    // Present samples scattered over the walk: whole prompts, single samples, the first and the last.
    for (const [i, sample] of [
      [0, 0],
      [3, 0],
      [3, 1],
      [3, 2],
      [4, 1],
      [11, 2],
      [12, 0],
      [12, 1],
      [12, 2],
      [29, 2],
    ] as const)
      await addVideo(projectId, `Mechanics/${prompts[i]}-${sample}.mp4`, prompts[i]!, sample, ["Mechanics"]);
    await addVideo(projectId, "flat/Flat two.-1.mp4", "Flat two.", 1, []);
    const expected = (await reference(projectId)).dimensions.flatMap((row) => row.missing);
    expect(expected).toHaveLength(30 * 3 - 10 + 2 * 3 - 1);
    for (const pageSize of [1, 7, 40]) {
      for (let page = 1; (page - 1) * pageSize <= expected.length; page++) {
        const got = await completenessFromDatabase(prisma, projectId, { page, pageSize });
        expect(got.missing.items, `page ${page} of ${pageSize}`).toEqual(
          expected.slice((page - 1) * pageSize, page * pageSize),
        );
      }
    }
  });

  it("lists each generator's partly present prompts before its wholly missing ones, page by page as the reference", async () => {
    const projectId = (await createProject(prisma, owner, { name: "Completeness, half there first" })).id;
    // Diversity (20 samples a prompt) and Mechanics (3): genA holds 5 of Diversity's "C" and one sample of
    // Mechanics' "Q" and the whole of "S"; genB holds one sample of "B".
    await addList(
      projectId,
      "diversity.json",
      ["A diverse one.", "B diverse one.", "C diverse one."].map((prompt) => ({ prompt, dimensions: ["Diversity"] })),
    );
    await addList(
      projectId,
      "mechanics.json",
      ["P falls.", "Q falls.", "R falls.", "S falls."].map((prompt) => ({ prompt, dimensions: ["Mechanics"] })),
    );
    for (let i = 0; i < 5; i++)
      await addVideo(projectId, `genA/Diversity/C diverse one.-${i}.mp4`, "C diverse one.", i, ["Diversity"], "genA");
    await addVideo(projectId, "genA/Mechanics/Q falls.-1.mp4", "Q falls.", 1, ["Mechanics"], "genA");
    for (let i = 0; i < 3; i++)
      await addVideo(projectId, `genA/Mechanics/S falls.-${i}.mp4`, "S falls.", i, ["Mechanics"], "genA");
    await addVideo(projectId, "genB/Diversity/B diverse one.-7.mp4", "B diverse one.", 7, ["Diversity"], "genB");

    // The first page of 20: genA's 15 samples of "C" that are not there, then "A"'s first 5.
    const first = await completenessFromDatabase(prisma, projectId, { page: 1, pageSize: 20 });
    expect(first.missing.items.map((m) => `${m.model} ${m.prompt}#${m.sampleIndex}`)).toEqual([
      ...Array.from({ length: 15 }, (_, i) => `genA C diverse one.#${5 + i}`),
      ...Array.from({ length: 5 }, (_, i) => `genA A diverse one.#${i}`),
    ]);
    const expected = (await reference(projectId)).dimensions.flatMap((row) => row.missing);
    // genB's Diversity: "B" (partly there) first; genA's Mechanics: "Q" first, then "P" and "R" ("S" is whole).
    const order = (model: string, dimension: string) => [
      ...new Set(expected.filter((m) => m.model === model && m.dimension === dimension).map((m) => m.prompt)),
    ];
    expect(order("genB", "Diversity")).toEqual(["B diverse one.", "A diverse one.", "C diverse one."]);
    expect(order("genA", "Mechanics")).toEqual(["Q falls.", "P falls.", "R falls."]);
    for (const pageSize of [1, 7, 20, 200]) {
      for (let page = 1; (page - 1) * pageSize <= expected.length; page++) {
        const got = await completenessFromDatabase(prisma, projectId, { page, pageSize });
        expect(got.missing.items, `page ${page} of ${pageSize}`).toEqual(
          expected.slice((page - 1) * pageSize, page * pageSize),
        );
      }
    }
  });

  it("answers as the reference after a list is deleted: the prompts it spelled first and counted are the other lists'", async () => {
    const projectId = (await createProject(prisma, owner, { name: "Completeness after a delete" })).id;
    const nfd = P[5]!.normalize("NFD");
    const first = await addList(projectId, "first.json", [
      { prompt: nfd, dimensions: ["Mechanics"] },
      { prompt: P[0]!, dimensions: ["Mechanics"] },
    ]);
    await addList(projectId, "second.json", [
      { prompt: P[5]!, dimensions: ["Mechanics", "Material"] },
      { prompt: P[0]!, dimensions: ["Mechanics"] },
      { prompt: P[1]!, dimensions: [] },
    ]);
    await addVideo(projectId, `Mechanics/${P[5]}-1.mp4`, P[5]!, 1, ["Mechanics"]);
    await addVideo(projectId, `Mechanics/${P[0]}-0.mp4`, P[0]!, 9, ["Mechanics"]);
    const compare = async () => {
      const expected = await reference(projectId);
      const got = await completenessFromDatabase(prisma, projectId, { page: 1, pageSize: 1000 });
      expect(got.totals).toEqual(expected.totals);
      expect(got.dimensions.map((d) => [d.dimension, d.prompts, d.present])).toEqual(
        expected.dimensions.map((d) => [d.dimension, d.prompts, d.present]),
      );
      expect(got.missing.items).toEqual(expected.dimensions.flatMap((row) => row.missing));
      expect(got.unexpected.items).toEqual(expected.dimensions.flatMap((row) => row.unexpected));
      return got;
    };
    expect((await compare()).missing.items[0]).toMatchObject({ prompt: nfd });
    await deletePromptList(
      { prisma, storage: getStorage() },
      await projectAccess(prisma, owner, projectId, "videos.import"),
      first.id!,
    );
    const after = await compare();
    expect(after.missing.items.map((m) => m.prompt)).toContain(P[5]);
    expect(after.dimensions.find((d) => d.dimension === "Mechanics")?.prompts).toBe(2);
  });

  it("expects every sample of each generator: two complete generators have nothing unexpected, and a sample one lacks is missing under it only", async () => {
    const projectId = (await createProject(prisma, owner, { name: "Completeness per generator" })).id;
    const prompts = P.slice(0, 6);
    await addList(
      projectId,
      "mechanics.json",
      prompts.map((prompt) => ({ prompt, dimensions: ["Mechanics"] })),
    );
    for (const model of ["genA", "genB"])
      for (const prompt of prompts)
        for (let i = 0; i < 3; i++)
          await addVideo(projectId, `${model}/Mechanics/${prompt}-${i}.mp4`, prompt, i, ["Mechanics"], model);

    const complete = await expectAsReference(projectId);
    expect(complete.totals).toMatchObject({
      generators: 2,
      videos: 36,
      expected: 36,
      present: 36,
      missing: 0,
      unexpected: 0,
    });
    expect(complete.generators.map((g) => [g.model, g.expected, g.present, g.missing])).toEqual([
      ["genA", 18, 18, 0],
      ["genB", 18, 18, 0],
    ]);

    // genB loses a sample, and gets a second file of one it has (a duplicate of its own file, not genA's).
    await prisma.video.deleteMany({ where: { projectId, relativePath: `genB/Mechanics/${P[2]}-1.mp4` } });
    await addVideo(projectId, `genB/copy/${P[0]}-0.mp4`, P[0]!, 0, ["Mechanics"], "genB");
    await addVideo(projectId, `loose/${P[1]}-2.mp4`, P[1]!, 2, ["Mechanics"]); // no generator: a group of its own
    const got = await expectAsReference(projectId);
    expect(got.totals).toMatchObject({ generators: 3, expected: 54, present: 36, missing: 18, unexpected: 1 });
    expect(got.missing.items.filter((m) => m.model !== null)).toEqual([
      { model: "genB", prompt: P[2], dimension: "Mechanics", sampleIndex: 1 },
    ]);
    expect(got.unexpected.items).toEqual([
      {
        relativePath: `genB/copy/${P[0]}-0.mp4`,
        model: "genB",
        prompt: P[0],
        sampleIndex: 0,
        reason: "duplicate_sample",
        duplicateOf: `genB/Mechanics/${P[0]}-0.mp4`,
      },
    ]);
    expect(got.dimensions[0]!.byGenerator.map((g) => [g.model, g.present, g.missing, g.unexpected])).toEqual([
      ["genA", 18, 0, 0],
      ["genB", 17, 1, 1],
      [null, 1, 17, 0],
    ]);
    // Pages walk dimension, then generator, then prompt.
    const page = await completenessFromDatabase(prisma, projectId, { page: 1, pageSize: 2 });
    expect(page.missing.items.map((m) => m.model)).toEqual(["genB", null]);

    // `model` narrows the report to one generator ("" the videos with none).
    const onlyB = await expectAsReference(projectId, "genB");
    expect(onlyB.totals).toMatchObject({
      generators: 1,
      videos: 18,
      expected: 18,
      present: 17,
      missing: 1,
      unexpected: 1,
    });
    const none = await expectAsReference(projectId, "");
    expect(none.totals).toMatchObject({ generators: 1, videos: 1, present: 1 });
    const unknown = await expectAsReference(projectId, "genZ");
    expect(unknown.totals).toMatchObject({ generators: 1, videos: 0, expected: 18, present: 0 });
  });
});
