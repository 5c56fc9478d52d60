import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";

import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { ItemFileError, type ItemFile } from "./item-set-import";
import type { ItemSetKind } from "../task-modules/item-set-kind";
import { deleteItemSet, listItemSets } from "./item-sets";
import { findItemSetKind, importItemSet } from "../../testkit/testing/item-sets";
import { builtInCatalogue, type TaskCatalogue, withTasks } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

/**
 * A toy task in a catalogue of the test's own, with an item set kind of its own ("video<TAB>note" lines):
 * the core imports, lists and deletes its sets with no edit anywhere else.
 */
const toyNotes: ItemSetKind<{ name?: string; dryRun?: boolean }, { notes: number }> = {
  id: "toy_notes",
  noun: "note list",
  defaultFileName: "notes.tsv",
  async plan({ file, options, videos }) {
    const videoIdByName = new Map(videos.map((video) => [video.relativePath.split("/").pop()!, video.id]));
    const lines = new TextDecoder().decode(file.bytes).split("\n").filter(Boolean);
    const rows = lines.map((text, index) => ({
      line: index + 1,
      video: text.split("\t")[0]!,
      note: text.split("\t")[1] ?? "",
    }));
    const errors = rows
      .filter((row) => !videoIdByName.has(row.video))
      .map((row) => ({ line: row.line, message: `no video "${row.video}"` }));
    if (errors.length) throw new ItemFileError(file.fileName, errors);
    return {
      set: { name: options.name || file.fileName, model: null, referenceSetId: null, citation: null },
      items: rows.map((row) => ({
        videoId: videoIdByName.get(row.video)!,
        externalId: `note-${row.line}`,
        kind: "toy_note",
        group: "",
        payload: { note: row.note, line: row.line },
      })),
      summary: { notes: rows.length },
    };
  },
};

let owner: Actor;
let toy: TaskCatalogue;
beforeAll(async () => {
  owner = await makeUser();
  toy = withTasks(builtInCatalogue(), {
    declarations: { id: "toy_items", tasks: [] },
    module: { id: "toy_items", pipelines: [], itemSetKinds: [toyNotes] },
  });
});

const notes = (text: string): ItemFile => ({ fileName: "notes.tsv", bytes: new TextEncoder().encode(text) });

describe("item sets of a kind a task module declares", () => {
  it("imports a toy task's set through the core by its kind's id: a dry run writes nothing, the import writes the set and its items, and it lists and deletes like any set", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    const paths = await prisma.video.findMany({
      where: { id: { in: videoIds } },
      orderBy: { relativePath: "asc" },
      select: { id: true, relativePath: true },
    });
    const [first, second] = paths.map((video) => ({ id: video.id, name: video.relativePath.split("/").pop()! }));
    const file = notes(`${first!.name}\tblurry start\n${second!.name}\tgood\n${first!.name}\tcut ends early\n`);

    const dry = await importItemSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      "toy_notes",
      file,
      { name: "Notes", dryRun: true },
      toy,
    );
    expect(dry).toMatchObject({
      dryRun: true,
      set: { id: null, kind: "toy_notes", name: "Notes", fileName: "notes.tsv", itemCount: 3 },
      notes: 3,
    });
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);

    const stored = await importItemSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      "toy_notes",
      file,
      { name: "Notes" },
      toy,
    );
    expect(stored).toMatchObject({ dryRun: false, set: { kind: "toy_notes", name: "Notes", itemCount: 3 }, notes: 3 });
    const items = await prisma.item.findMany({
      where: { setId: stored.set.id! },
      orderBy: { externalId: "asc" },
      select: { externalId: true, kind: true, videoId: true, payload: true },
    });
    expect(items).toEqual([
      { externalId: "note-1", kind: "toy_note", videoId: first!.id, payload: { note: "blurry start", line: 1 } },
      { externalId: "note-2", kind: "toy_note", videoId: second!.id, payload: { note: "good", line: 2 } },
      { externalId: "note-3", kind: "toy_note", videoId: first!.id, payload: { note: "cut ends early", line: 3 } },
    ]);

    expect(
      await listItemSets(prisma, await projectAccess(prisma, owner, projectId, "project.view"), ["toy_notes"], toy),
    ).toEqual([expect.objectContaining({ id: stored.set.id, kind: "toy_notes", name: "Notes" })]);
    expect(
      await deleteItemSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), stored.set.id!),
    ).toEqual({
      id: stored.set.id,
      deletedItems: 3,
    });
    expect(await prisma.item.count({ where: { projectId } })).toBe(0);
  });

  it("refuses a bad file with every problem and writes nothing; a non-member cannot import (404); an unknown kind is a 400", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    await expect(
      importItemSet(
        prisma,
        await projectAccess(prisma, owner, projectId, "videos.import"),
        "toy_notes",
        notes("nope.mp4\tx\nalso-nope.mp4\ty\n"),
        {},
        toy,
      ),
    ).rejects.toMatchObject({
      status: 422,
      details: {
        errors: [
          { line: 1, message: 'no video "nope.mp4"' },
          { line: 2, message: 'no video "also-nope.mp4"' },
        ],
      },
    });
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);

    const stranger = await makeUser();
    await expect(projectAccess(prisma, stranger, projectId, "videos.import")).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      importItemSet(
        prisma,
        await projectAccess(prisma, owner, projectId, "videos.import"),
        "no_such_kind",
        notes(""),
        {},
        toy,
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("toy_notes"),
    });
  });

  it("reads the catalogue it is given: a kind of a catalogue with one more task is found there, and not in the one it came from", () => {
    expect(findItemSetKind(toy, "toy_notes")).toBe(toyNotes);
    expect(findItemSetKind(toy, "questions")?.noun).toBe("question set");
    const other = withTasks(toy, {
      module: { id: "toy_items_2", pipelines: [], itemSetKinds: [{ ...toyNotes, id: "toy_notes_2" }] },
    });
    expect(findItemSetKind(other, "toy_notes_2")?.id).toBe("toy_notes_2");
    expect(findItemSetKind(toy, "toy_notes_2")).toBeUndefined();
    expect(findItemSetKind(builtInCatalogue(), "toy_notes")).toBeUndefined();
  });
});
