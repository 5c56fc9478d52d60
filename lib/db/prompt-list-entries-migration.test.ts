import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Actor } from "../auth/actor";
import { createUser } from "../auth/users";
import type { PrismaClient } from "../generated/prisma/client";
import { completenessReport } from "../../testkit/import/completeness-report";
import { completenessFromDatabase } from "../videos/completeness-query";
import { promptIndexForProject } from "../videos/describe-imported-video";
import { databaseUrl, ensureDatabase } from "./embedded-postgres";
import { dropDatabase } from "../../testkit/testing/test-database";
import { applyMigrations, readMigrations } from "./migrate";
import { createPrismaClient } from "./prisma";
import { MIGRATIONS_DIR } from "./resolve-database";
import { createReadyVideo } from "../../testkit/testing/ready-video";

// Lists as the release that kept each list's entries inside its row (prompt_list.entries, jsonb) stored them: one
// with each entry's match keys (nfc, names), one from before the keys were stored, a later list spelling a prompt
// in NFD and adding a dimension, entries with padding, no dimension, auxiliary info and an empty prompt. Migrating
// must give the prompt index the same entries and the completeness report the reference's answer.

const MIGRATION = "20261127180000_prompt_list_entries";
const baseUrl = inject("serverBaseUrl");
const name = `prompt_list_entries_migration_${Date.now().toString(36)}`;
const LONG = `A long prompt ${"that keeps going ".repeat(14)}and ends here.`;
let url: string;
let db: PrismaClient;
let owner: Actor;
let projectId: string;

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function oldList(listName: string, createdAt: string, entries: unknown[]) {
  await sql(
    `INSERT INTO prompt_list (id, "projectId", name, format, entries, "entryCount", "createdById", "createdAt") VALUES ($1, $2, $3, 'json-array', $4, $5, $6, $7)`,
    [randomUUID(), projectId, listName, JSON.stringify(entries), entries.length, owner.userId, createdAt],
  );
}

async function addVideo(relativePath: string, prompt: string, sampleIndex: number, dimensions: string[]) {
  await createReadyVideo(db, { projectId, relativePath, prompt, sampleIndex, dimensions, createdById: owner.userId });
}

beforeAll(async () => {
  const all = readMigrations(MIGRATIONS_DIR).map((m) => m.name);
  const previous = all[all.indexOf(MIGRATION) - 1]!;
  await ensureDatabase(baseUrl, name);
  url = databaseUrl(baseUrl, name);
  expect((await applyMigrations(url, MIGRATIONS_DIR, () => {}, { upTo: previous })).applied.at(-1)).toBe(previous);
  db = createPrismaClient(url);
  const user = await createUser(db, {
    email: `owner-${randomUUID()}@example.test`,
    password: "correct horse battery",
    isAdmin: false,
  });
  owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
  // Written in SQL: the client knows the schema's later columns, which this database does not have yet.
  projectId = randomUUID();
  await sql(`INSERT INTO project (id, name, "updatedAt") VALUES ($1, 'before prompt-list entry rows', now())`, [
    projectId,
  ]);
  await sql(`INSERT INTO project_member ("projectId", "userId", role, "updatedAt") VALUES ($1, $2, 'owner', now())`, [
    projectId,
    owner.userId,
  ]);
  await oldList("keyed.json", "2026-01-01T00:00:00Z", [
    { prompt: "A ball rolls.", dimensions: ["Mechanics"], nfc: "A ball rolls.", names: ["A ball rolls."] },
    { prompt: "Señor waves.", dimensions: ["Mechanics"], nfc: "Señor waves.", names: ["Señor waves."] },
  ]);
  await oldList("unkeyed.json", "2026-01-02T00:00:00Z", [
    { prompt: "  A cup falls.  ", dimensions: ["Material"], auxiliaryInfo: { Material: { liquid: "water" } } },
    { prompt: LONG, dimensions: ["Mechanics"] },
    { prompt: "A door swings.", dimensions: [] },
    { prompt: "   ", dimensions: ["Mechanics"] },
  ]);
  await oldList("nfd.json", "2026-01-03T00:00:00Z", [
    { prompt: "Señor waves.".normalize("NFD"), dimensions: ["Material"] },
  ]);
  const before = (await promptIndexBefore()).map((e) => JSON.stringify(e));
  expect(before).toHaveLength(5);
  expect((await applyMigrations(url, MIGRATIONS_DIR)).applied.at(-1)).toBe(all.at(-1));
  indexBefore = before;
});

let indexBefore: string[];

/** The prompt index the old release built: the lists' entries, lists by age. */
async function promptIndexBefore() {
  const { buildPromptIndex } = await import("../import/prompt-lists");
  const rows = await sql(`SELECT entries FROM prompt_list WHERE "projectId" = $1 ORDER BY "createdAt"`, [projectId]);
  return buildPromptIndex(
    rows.flatMap(
      (row: { entries: { prompt: string; dimensions: string[]; auxiliaryInfo?: Record<string, unknown> }[] }) =>
        row.entries,
    ),
  ).toJSON();
}

afterAll(async () => {
  await db?.$disconnect();
  await dropDatabase(baseUrl, name);
});

describe(`migration ${MIGRATION}`, () => {
  it("gives the prompt index the entries the lists held, and the report the reference's answer", async () => {
    const index = await promptIndexForProject(db, projectId);
    expect(index.toJSON().map((e) => JSON.stringify(e))).toEqual(indexBefore);
    expect(
      await sql(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'prompt_list' AND column_name = 'entries'`,
      ),
    ).toEqual([]);

    await addVideo(`Mechanics/${LONG.slice(0, 180)}-0.mp4`, LONG.slice(0, 180), 0, ["Mechanics"]);
    await addVideo("Material/A cup falls.-1.mp4", "A cup falls.", 1, ["Material"]);
    await addVideo(`Material/${"Señor waves.".normalize("NFD")}-2.mp4`, "Señor waves.".normalize("NFD"), 2, [
      "Material",
    ]);
    await addVideo("flat/A door swings.-0.mp4", "A door swings.", 0, []);
    const videos = await db.video.findMany({
      where: { projectId },
      select: { relativePath: true, prompt: true, dimensions: true, sampleIndex: true },
    });
    const expected = completenessReport({ promptIndex: await promptIndexForProject(db, projectId), videos });
    const got = await completenessFromDatabase(db, projectId, { page: 1, pageSize: 1000 });
    expect(got.totals).toEqual(expected.totals);
    expect(got.totals).toMatchObject({ videos: 4, present: 4, unmatched: 0 });
    expect(got.missing.items).toEqual(expected.dimensions.flatMap((row) => row.missing));
    expect(got.dimensions.map((d) => [d.dimension, d.prompts])).toEqual([
      ["Material", 2],
      ["Mechanics", 3],
      [null, 1],
    ]);
  });
});
