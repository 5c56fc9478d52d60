/**
 * Importing a pairwise label set: a file of one of PAIRWISE_IMPORT_FORMATS read as it streams, each row made into
 * votes on pairs (resolve-vote.ts) or refused with a reason. A dry run reads the whole file and answers what a real
 * run would do, writing nothing. A real run writes, in one transaction (so a failure part-way leaves nothing), a
 * LabelSet (its annotators: the file's raters), a PairSet (origin: the import), the pairs and the votes, in batches
 * of IMPORT_BATCH: memory holds one batch, whatever the file's length. Each rater's votes are kept as the label set's
 * annotator `labelset:<id>:<rater>`.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { isPrismaError, UNIQUE_VIOLATION } from "../../db/prisma-errors";
import { ConflictError, ValidationError } from "../../errors";
import {
  LISTED_REFUSALS,
  type PairImportAnswer,
  type PairImportOptions,
  type Refusal,
  type RowReading,
} from "./import.types";
import { DEFAULT_ASPECTS, type Aspect } from "../aspects";
import { pairwiseImportFormat } from "./pairwise-import-formats";
import type { PairwiseImportFormat } from "./formats/format";
import { csvRecords, jsonlRecords, jsonRecords, textChunks, type SourceRecord } from "./records";
import { voteResolver, type ProjectVideo, type ResolvedVote } from "./resolve-vote";

/** Votes written per batch: a batch's pairs and votes are each one insert. */
export const IMPORT_BATCH = 5_000;
/** How long one import's transaction may take (a million rows are a few minutes of inserts). */
const IMPORT_TRANSACTION_MS = 30 * 60_000;

export interface PairImportInput {
  options: PairImportOptions;
  /** The file's bytes as they arrive (a request part's stream, or one buffer). */
  file: AsyncIterable<Uint8Array>;
  fileName: string;
}

/** The label set's rater id of one of its annotators. */
export function labelSetRaterId(labelSetId: string, rater: string): string {
  return `labelset:${labelSetId}:${rater}`;
}

/** A 53-bit hash of a text: sets of them stand for sets of long keys in bounded memory (collisions ~1e-4 in 1e6). */
function keyHash(text: string): number {
  const digest = createHash("md5").update(text).digest();
  return digest.readUIntBE(0, 6) * 32 + (digest[6]! & 31);
}

function recordsOf(format: PairwiseImportFormat, bytes: AsyncIterable<Uint8Array>): AsyncIterable<SourceRecord> {
  const text = textChunks(bytes);
  switch (format.reader) {
    case "csv":
      return csvRecords(text);
    case "jsonl":
      return jsonlRecords(text);
    case "json":
      return jsonRecords(text);
    default: {
      const never: never = format.reader;
      throw new Error(`unknown reader ${String(never)}`);
    }
  }
}

/** The tally of one import: what the answer reports, kept in bounded memory. */
class ImportTally {
  rows = 0;
  votes = 0;
  imported = 0;
  readonly interpreted = new Map<string, number>();
  readonly refusedByReason = new Map<string, number>();
  readonly refused: Refusal[] = [];
  refusedCount = 0;
  readonly raters = new Set<string>();
  readonly pairs = new Set<number>();
  readonly voteKeys = new Set<number>();
  readonly matchedVideos = new Set<string>();

  interpret = (what: string) => this.interpreted.set(what, (this.interpreted.get(what) ?? 0) + 1);

  refuse(refusal: Refusal) {
    this.refusedCount += 1;
    this.refusedByReason.set(refusal.reason, (this.refusedByReason.get(refusal.reason) ?? 0) + 1);
    if (this.refused.length < LISTED_REFUSALS) this.refused.push(refusal);
  }

  /** Counts an accepted vote; false when the file already gave the same rater's vote on the same pair and aspect. */
  accept(vote: ResolvedVote): boolean {
    const key = keyHash(JSON.stringify([vote.pair.pairKey, vote.aspect, vote.rater]));
    if (this.voteKeys.has(key)) return false;
    this.voteKeys.add(key);
    this.votes += 1;
    this.raters.add(vote.rater);
    this.pairs.add(keyHash(vote.pair.pairKey));
    if (vote.pair.videoAId) this.matchedVideos.add(vote.pair.videoAId);
    if (vote.pair.videoBId) this.matchedVideos.add(vote.pair.videoBId);
    return true;
  }
}

async function projectVideos(prisma: PrismaClient, projectId: string): Promise<ProjectVideo[]> {
  return prisma.video.findMany({
    where: { projectId },
    select: { id: true, fileName: true, relativePath: true, sha256: true, prompt: true, model: true },
  });
}

async function requireFreeNames(prisma: PrismaClient, projectId: string, name: string) {
  const [pairSet, labelSet] = await Promise.all([
    prisma.pairSet.findUnique({ where: { projectId_name: { projectId, name } }, select: { id: true } }),
    prisma.labelSet.findUnique({ where: { projectId_name: { projectId, name } }, select: { id: true } }),
  ]);
  if (pairSet) throw new ConflictError(`The project already has a pair set named "${name}".`);
  if (labelSet) throw new ConflictError(`The project already has a label set named "${name}".`);
}

/** The file's bytes, hashed as they pass. */
function hashing(bytes: AsyncIterable<Uint8Array>, hash: ReturnType<typeof createHash>): AsyncIterable<Uint8Array> {
  return (async function* () {
    for await (const chunk of bytes) {
      hash.update(chunk);
      yield chunk;
    }
  })();
}

/**
 * Reads every row, handing each accepted vote to `onVote` (awaited: a real run writes its batch there); refusals and
 * readings go to the tally.
 */
async function readVotes(
  input: PairImportInput,
  videos: readonly ProjectVideo[],
  tally: ImportTally,
  onVote: (vote: ResolvedVote) => Promise<void>,
) {
  const { options } = input;
  const format = pairwiseImportFormat(options.format);
  const resolver = voteResolver(videos, options);
  const context = {
    options,
    column: (logical: keyof PairImportOptions["mapping"]) =>
      options.mapping[logical] ?? format.columns[logical] ?? logical,
  };
  const hash = createHash("sha256");
  for await (const record of recordsOf(format, hashing(input.file, hash))) {
    tally.rows += 1;
    const reading: RowReading = record.fields
      ? format.readRecord({ row: record.row, fields: record.fields }, context)
      : {
          votes: [],
          refusals: [{ row: record.row, reason: "malformed_row", message: record.error ?? "unreadable row" }],
          interpretations: [],
        };
    for (const what of new Set(reading.interpretations)) tally.interpret(what);
    for (const refusal of reading.refusals) tally.refuse(refusal);
    for (const vote of reading.votes) {
      const readings: string[] = [];
      const resolved = resolver.resolve(vote, (what) => readings.push(what));
      if (!("pair" in resolved)) tally.refuse(resolved);
      else if (!tally.accept(resolved))
        tally.refuse({
          row: vote.row,
          rater: vote.rater,
          reason: "duplicate_vote",
          message: "the same rater's vote on this pair and aspect came earlier in the file",
        });
      else {
        readings.forEach(tally.interpret);
        await onVote(resolved);
      }
    }
  }
  return { sha256: hash.digest("hex"), aspects: resolver.aspects() };
}

function answerOf(
  tally: ImportTally,
  options: PairImportOptions,
  sha256: string,
  written: { pairSetId: string; labelSetId: string; pairs: number } | null,
): PairImportAnswer {
  return {
    dryRun: written === null,
    format: options.format,
    sha256,
    rows: tally.rows,
    votes: tally.votes,
    imported: written ? tally.imported : tally.votes,
    pairs: written ? written.pairs : tally.pairs.size,
    raters: [...tally.raters].sort(),
    aspects: [],
    matchedVideos: tally.matchedVideos.size,
    interpreted: Object.fromEntries(tally.interpreted),
    refusedCount: tally.refusedCount,
    refusedByReason: Object.fromEntries(tally.refusedByReason),
    refused: tally.refused,
    pairSetId: written?.pairSetId ?? null,
    labelSetId: written?.labelSetId ?? null,
  };
}

type Tx = Prisma.TransactionClient;

/** A pair set's aspect for an imported one: a default aspect's label and guideline where the id is one of them. */
function pairSetAspect({ id, levels }: { id: string; levels: 4 | 5 }): Aspect {
  const known = DEFAULT_ASPECTS.find((aspect) => aspect.id === id);
  return { id, label: known?.label ?? id.replaceAll("_", " "), guideline: known?.guideline ?? "", levels };
}

function noVoteMessage(tally: ImportTally): string {
  const reasons = [...tally.refusedByReason].map(([reason, count]) => `${reason}: ${count}`).join(", ");
  return `The file holds no vote that can be imported (${tally.rows} rows; refused ${reasons || "none"}).`;
}

/**
 * Writes one batch of votes: their new pairs (numbered on from `position`), then the votes. Each is one INSERT of
 * column arrays (unnest): a few bind parameters whatever the batch's size, where a multi-row insert would bind ten a
 * row and take seconds to plan. Returns the next position and the votes written.
 */
async function writeBatch(
  tx: Tx,
  target: { projectId: string; pairSetId: string; labelSetId: string },
  batch: readonly ResolvedVote[],
  position: number,
): Promise<{ position: number; imported: number }> {
  const { projectId, pairSetId, labelSetId } = target;
  const pairs = new Map(batch.map((vote) => [vote.pair.pairKey, vote.pair]));
  const keys = [...pairs.keys()];
  const existing = await tx.$queryRaw<{ id: string; pairKey: string }[]>`
    SELECT id, "pairKey" FROM pair WHERE "pairSetId" = ${pairSetId} AND "pairKey" = ANY(${keys}::text[])`;
  const ids = new Map(existing.map((pair) => [pair.pairKey, pair.id]));
  const fresh = keys.filter((key) => !ids.has(key)).map((key) => ({ ...pairs.get(key)!, id: randomUUID() }));
  for (const pair of fresh) ids.set(pair.pairKey, pair.id);
  const column = <K extends keyof (typeof fresh)[number]>(name: K) => fresh.map((pair) => pair[name]);
  await tx.$executeRaw`
    INSERT INTO pair (id, "pairSetId", "projectId", "pairKey", position, "videoAId", "videoBId", "generatorA",
      "generatorB", prompt, "nameA", "nameB")
    SELECT p.id, ${pairSetId}, ${projectId}, p.key, ${position} + p.n - 1, p.a, p.b, p.ga, p.gb, p.prompt, p.na, p.nb
    FROM unnest(${column("id")}::text[], ${column("pairKey")}::text[], ${column("videoAId")}::text[],
      ${column("videoBId")}::text[], ${column("generatorA")}::text[], ${column("generatorB")}::text[],
      ${column("prompt")}::text[], ${column("nameA")}::text[], ${column("nameB")}::text[])
      WITH ORDINALITY AS p(id, key, a, b, ga, gb, prompt, na, nb, n)`;
  const imported = await tx.$executeRaw`
    INSERT INTO pair_verdict (id, "projectId", "pairSetId", "pairId", aspect, "raterKind", "raterId", verdict, strength,
      "labelSetId", "updatedAt")
    SELECT v.id, ${projectId}, ${pairSetId}, v.pair, v.aspect, 'label_set', v.rater, v.verdict, v.strength,
      ${labelSetId}, now()
    FROM unnest(${batch.map(() => randomUUID())}::text[], ${batch.map((vote) => ids.get(vote.pair.pairKey)!)}::text[],
      ${batch.map((vote) => vote.aspect)}::text[],
      ${batch.map((vote) => labelSetRaterId(labelSetId, vote.rater))}::text[],
      ${batch.map((vote) => vote.verdict)}::text[], ${batch.map((vote) => vote.strength)}::int[])
      AS v(id, pair, aspect, rater, verdict, strength)
    ON CONFLICT ("pairId", aspect, "raterId") DO NOTHING`;
  return { position: position + fresh.length, imported };
}

/** The dry run's answer against these project videos: reads the whole file, needs no database, writes nothing. */
export async function dryRunPairwise(
  input: PairImportInput,
  videos: readonly ProjectVideo[],
): Promise<PairImportAnswer> {
  const tally = new ImportTally();
  const { sha256, aspects } = await readVotes(input, videos, tally, async () => undefined);
  return { ...answerOf(tally, input.options, sha256, null), aspects: aspects.map((a) => a.id) };
}

/** The dry run's answer, or the import written: see the file's comment. */
export async function importPairwise(
  prisma: PrismaClient,
  access: ProjectAccess<"pairs.manage">,
  input: PairImportInput,
): Promise<PairImportAnswer> {
  const { projectId, actor } = access;
  const { options } = input;
  await requireFreeNames(prisma, projectId, options.name);
  const videos = await projectVideos(prisma, projectId);
  if (options.dryRun) return dryRunPairwise(input, videos);
  const tally = new ImportTally();
  const taken = (error: unknown) => {
    // A second import of the same name that passed the check at the same moment meets the unique names here.
    throw isPrismaError(error, UNIQUE_VIOLATION)
      ? new ConflictError(`The project already has a pair set or label set named "${options.name}".`)
      : error;
  };
  return prisma
    .$transaction(
      async (tx) => {
        const labelSet = await tx.labelSet.create({
          data: {
            projectId,
            name: options.name,
            format: `pairwise:${options.format}`,
            fileName: input.fileName,
            sha256: "",
            citation: options.citation,
            importedById: actor.userId,
            annotators: [],
          },
        });
        const pairSet = await tx.pairSet.create({
          data: {
            projectId,
            name: options.name,
            aspects: [],
            origin: {},
            crossPrompt: options.crossPrompt,
            createdById: actor.userId,
          },
        });
        const target = { projectId, pairSetId: pairSet.id, labelSetId: labelSet.id };
        let batch: ResolvedVote[] = [];
        let position = 0;
        const flush = async () => {
          const written = await writeBatch(tx, target, batch, position);
          position = written.position;
          tally.imported += written.imported;
          batch = [];
        };
        const { sha256, aspects } = await readVotes(input, videos, tally, async (vote) => {
          batch.push(vote);
          if (batch.length >= IMPORT_BATCH) await flush();
        });
        if (batch.length) await flush();
        if (tally.imported === 0) throw new ValidationError(noVoteMessage(tally));
        await tx.labelSet.update({
          where: { id: labelSet.id },
          data: { sha256, annotators: [...tally.raters].sort() },
        });
        await tx.pairSet.update({
          where: { id: pairSet.id },
          data: {
            pairCount: position,
            aspects: aspects.map(pairSetAspect),
            origin: { source: "import", format: options.format, fileName: input.fileName, sha256 },
          },
        });
        return {
          ...answerOf(tally, options, sha256, { pairSetId: pairSet.id, labelSetId: labelSet.id, pairs: position }),
          aspects: aspects.map((a) => a.id),
        };
      },
      { timeout: IMPORT_TRANSACTION_MS, maxWait: 60_000 },
    )
    .catch(taken);
}
