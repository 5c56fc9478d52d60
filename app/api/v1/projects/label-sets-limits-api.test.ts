import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { MAX_XLSX_CELLS, MAX_XLSX_ROWS, MAX_XLSX_UNPACKED_BYTES } from "@/lib/label-sets/xlsx-limits";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { parseT2vHaluBenchSheet } from "@/lib/tasks/hallucination/t2vhalubench";
import {
  deflatedPart,
  repeatedPart,
  SHEET_HEAD,
  SHEET_TAIL,
  sheetRow,
  xlsxWithSheet,
  zipOf,
  type ZipPart,
} from "@/testkit/testing/xlsx-files";
import { POST as importRoute } from "./[projectId]/label-sets/route";

let ownerKey: string;
let projectId: string;
const MATCHED = ["7.mp4", "70000.mp4", "99999.mp4"];
const HEADER = [
  "Example",
  "Is_Hallucination",
  "Is_Prompt_Consistency",
  "Static_Hallucination",
  "Dynamic_Hallucination",
  "model",
];

beforeAll(async () => {
  const owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Label sheet limits" })).id;
  for (const name of MATCHED) {
    await prisma.video.create({
      data: {
        projectId,
        sha256: name.padEnd(64, "0"),
        sizeBytes: BigInt(1),
        fileName: name,
        relativePath: `Sora/${name}`,
        storageKey: `k/${name}`,
        contentType: "video/mp4",
        status: "ready",
        createdById: owner.userId,
      },
    });
  }
});

async function post(file: Buffer, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("name", "limits");
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([new Uint8Array(file)]), "T2VHaluBench.xlsx");
  const response = await importRoute(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${ownerKey}` }, body: form }),
    { params: Promise.resolve({ projectId }) },
  );
  return { status: response.status, body: (await response.json()) as any };
}

/** Runs `work` while sampling the process's resident memory; returns its result and the peak growth in MiB. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMiB: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMiB: (peak - before) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

/** A label sheet whose one data row holds a cell of `bytes` letters: XML that deflates about 1000 to 1. */
async function bombSheet(bytes: number, declaredSize?: number): Promise<Buffer> {
  const unit = "A".repeat(1024);
  const part: ZipPart = await repeatedPart(
    "xl/worksheets/sheet1.xml",
    `${SHEET_HEAD}${sheetRow(1, HEADER)}<row r="2"><c r="A2" t="inlineStr"><is><t>`,
    unit,
    Math.ceil(bytes / unit.length),
    `</t></is></c></row>${SHEET_TAIL}`,
  );
  return xlsxWithSheet(declaredSize === undefined ? part : { ...part, declaredSize });
}

describe("label sheets (.xlsx) are checked against named limits before they are parsed", () => {
  it("refuses a zip bomb with a 413 naming the unpacked-size limit, its memory flat, whether its zip tells its size or lies", async () => {
    const unpacked = 400 * 2 ** 20; // the issue's bomb unpacked to 391 MB
    for (const declaredSize of [undefined, 1_000]) {
      const bomb = await bombSheet(unpacked, declaredSize);
      expect(bomb.length).toBeLessThan(2 * 2 ** 20);
      const { result, growthMiB } = await peakRssGrowth(() => post(bomb));
      expect(result.status, `declared ${declaredSize ?? "truly"}`).toBe(413);
      expect(result.body.error.message).toContain(`limit of ${MAX_XLSX_UNPACKED_BYTES / 2 ** 20} MiB`);
      // exceljs read the whole workbook into memory: gigabytes for this one.
      expect(growthMiB, `declared ${declaredSize ?? "truly"}`).toBeLessThan(150);
    }
    expect(await prisma.labelSet.count({ where: { projectId } })).toBe(0);
  }, 120_000);

  it("refuses more rows or cells than the limits with a 413 naming them", async () => {
    const rows = await repeatedPart(
      "xl/worksheets/sheet1.xml",
      `${SHEET_HEAD}${sheetRow(1, HEADER)}`,
      `<row><c><v>1</v></c></row>`,
      MAX_XLSX_ROWS,
      SHEET_TAIL,
    );
    const tooManyRows = await post(xlsxWithSheet(rows));
    expect(tooManyRows.status).toBe(413);
    expect(tooManyRows.body.error.message).toContain(`limit of ${MAX_XLSX_ROWS.toLocaleString("en")} rows`);

    const cells = await repeatedPart(
      "xl/worksheets/sheet1.xml",
      `${SHEET_HEAD}${sheetRow(1, HEADER)}<row r="2">`,
      `<c><v>1</v></c>`,
      MAX_XLSX_CELLS,
      `</row>${SHEET_TAIL}`,
    );
    const tooManyCells = await post(xlsxWithSheet(cells));
    expect(tooManyCells.status).toBe(413);
    expect(tooManyCells.body.error.message).toContain(`limit of ${MAX_XLSX_CELLS.toLocaleString("en")} cells`);
  }, 120_000);

  it("matches a 100,000-row sheet to the project's videos (a query per chunk of names, not a bind parameter each in one)", async () => {
    const rows: string[] = [];
    for (let i = 0; i < 100_000; i++)
      rows.push(sheetRow(i + 2, [`${i}.mp4`, i % 2, 1, i % 3 ? "-" : "s1", "-", "Sora"]));
    const sheet = await repeatedPart(
      "xl/worksheets/sheet1.xml",
      `${SHEET_HEAD}${sheetRow(1, HEADER)}`,
      rows.join(""),
      1,
      SHEET_TAIL,
    );
    const file = xlsxWithSheet(sheet);
    const dry = await post(file);
    expect(dry.status).toBe(200);
    expect(dry.body.plan).toMatchObject({
      rows: 100_000,
      matchedVideos: 3,
      judgments: { verdict: 3, presence: 3 * 20 },
    });
    expect(dry.body.plan.issues.filter((i: any) => i.action === "skipped")).toHaveLength(100_000 - 3);

    const imported = await post(file, { dryRun: "false", name: "100k rows" });
    expect(imported.status).toBe(201);
    const videos = await prisma.video.findMany({ where: { projectId }, select: { id: true, fileName: true } });
    const verdicts = await prisma.humanJudgment.findMany({
      where: { labelSetId: imported.body.labelSet.id, targetType: "verdict" },
      select: { videoId: true, value: true },
    });
    const verdictOf = Object.fromEntries(
      verdicts.map((v) => [videos.find((x) => x.id === v.videoId)!.fileName, v.value]),
    );
    expect(verdictOf).toEqual({ "7.mp4": 1, "70000.mp4": 0, "99999.mp4": 1 });
  }, 180_000);

  it("streams a sheet whatever the order of the workbook's files (exceljs writes them in no fixed order)", async () => {
    const sheet = deflatedPart(
      "xl/worksheets/sheet1.xml",
      `${SHEET_HEAD}${sheetRow(1, HEADER)}${sheetRow(2, ["1.mp4", 1, 1, "-", "-", "Sora"])}${SHEET_TAIL}`,
    );
    const rels = deflatedPart(
      "xl/_rels/workbook.xml.rels",
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    );
    const strings = deflatedPart(
      "xl/sharedStrings.xml",
      `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"></sst>`,
    );
    const workbook = deflatedPart(
      "xl/workbook.xml",
      `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    );
    for (const order of [
      [rels, strings, sheet, workbook],
      [workbook, sheet, rels, strings],
      [workbook, rels, strings, sheet],
    ]) {
      const parsed = await parseT2vHaluBenchSheet(zipOf(order));
      expect(parsed.rows.map((r) => [r.example, r.hallucination])).toEqual([["1.mp4", 1]]);
    }
  });
});
