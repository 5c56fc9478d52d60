/**
 * A pair set's votes as a file: CSV or JSON Lines in the generic import shape (so an export imports again), or arena
 * battles (`model_a, model_b, winner, judge, tstamp`, as FastChat's rating scripts read them, with the prompt, videos
 * and aspect beside them). Withdrawn verdicts are not votes and are left out. Written a page at a time: one page of
 * verdicts in memory whatever the set's size.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { csvRow } from "../../format/csv";
import type { Verdict } from "../verdicts";
import { VOTE_EXPORT_COLUMNS, type VoteExportFormat, type VoteExportRow } from "./votes-export.types";

const PAGE = 1000;

const ARENA_WINNERS: Record<Verdict, string> = {
  A: "model_a",
  B: "model_b",
  tie_good: "tie",
  tie_bad: "tie (bothbad)",
};

/** A label set's annotator is exported by its own name, so the file imports again as the same raters. */
function raterName(raterId: string, labelSetId: string | null): string {
  const prefix = labelSetId ? `labelset:${labelSetId}:` : null;
  return prefix && raterId.startsWith(prefix) ? raterId.slice(prefix.length) : raterId;
}

/** The set's votes (not withdrawn; of one aspect when given), a page of PAGE at a time in id order. */
export async function* votePages(
  prisma: PrismaClient,
  pairSetId: string,
  aspect: string | undefined,
): AsyncGenerator<VoteExportRow[]> {
  let after: string | undefined;
  for (;;) {
    const verdicts = await prisma.pairVerdict.findMany({
      where: { pairSetId, withdrawn: false, ...(aspect ? { aspect } : {}), ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        aspect: true,
        raterKind: true,
        raterId: true,
        labelSetId: true,
        verdict: true,
        strength: true,
        updatedAt: true,
        pair: {
          select: {
            pairKey: true,
            prompt: true,
            generatorA: true,
            generatorB: true,
            nameA: true,
            nameB: true,
            videoA: { select: { relativePath: true, sha256: true } },
            videoB: { select: { relativePath: true, sha256: true } },
          },
        },
      },
    });
    if (verdicts.length === 0) return;
    after = verdicts[verdicts.length - 1]!.id;
    yield verdicts.map(({ pair, ...v }) => ({
      pair_key: pair.pairKey,
      prompt: pair.prompt,
      generator_a: pair.generatorA,
      generator_b: pair.generatorB,
      video_a: pair.videoA?.relativePath ?? (pair.nameA !== pair.generatorA ? pair.nameA : ""),
      video_b: pair.videoB?.relativePath ?? (pair.nameB !== pair.generatorB ? pair.nameB : ""),
      sha256_a: pair.videoA?.sha256 ?? "",
      sha256_b: pair.videoB?.sha256 ?? "",
      aspect: v.aspect,
      rater: raterName(v.raterId, v.labelSetId),
      rater_kind: v.raterKind,
      verdict: v.verdict as Verdict,
      strength: v.strength,
      updated_at: v.updatedAt.toISOString(),
      tstamp: v.updatedAt.getTime() / 1000,
    }));
    if (verdicts.length < PAGE) return;
  }
}

function arenaRow(row: VoteExportRow) {
  return {
    model_a: row.generator_a,
    model_b: row.generator_b,
    winner: ARENA_WINNERS[row.verdict],
    judge: row.rater,
    tstamp: row.tstamp,
    prompt: row.prompt,
    video_a: row.video_a,
    video_b: row.video_b,
    aspect: row.aspect,
  };
}

function pageText(format: VoteExportFormat, rows: readonly VoteExportRow[]): string {
  switch (format) {
    case "csv":
      return rows.map((row) => csvRow(VOTE_EXPORT_COLUMNS.map((column) => row[column]))).join("");
    case "jsonl":
      return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
    case "arena":
      return rows.map((row) => `${JSON.stringify(arenaRow(row))}\n`).join("");
    default: {
      const never: never = format;
      throw new Error(`unknown vote export format ${String(never)}`);
    }
  }
}

export interface VoteExport {
  fileName: string;
  contentType: string;
  /** The file's text, a page at a time. */
  chunks: AsyncGenerator<string>;
}

/** The pair set's votes (of one aspect when given) as `format`; a set of another project is not found. */
export async function exportPairSetVotes(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  pairSetId: string,
  format: VoteExportFormat,
  aspect?: string,
): Promise<VoteExport> {
  const set = await prisma.pairSet.findFirst({
    where: { id: pairSetId, projectId: access.projectId },
    select: { id: true, name: true },
  });
  if (!set) throw new NotFoundError("No such pair set.");
  const slug = set.name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "pair-set";
  const extension = format === "csv" ? "csv" : "jsonl";
  async function* chunks() {
    if (format === "csv") yield csvRow([...VOTE_EXPORT_COLUMNS]);
    for await (const page of votePages(prisma, set!.id, aspect)) yield pageText(format, page);
  }
  return {
    fileName: `${slug}-votes${format === "arena" ? "-arena" : ""}.${extension}`,
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    chunks: chunks(),
  };
}
