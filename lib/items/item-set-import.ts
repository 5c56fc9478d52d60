/**
 * Importing an item set of any kind (item-set-kind.ts): the kind reads the file into items or refuses it
 * with every problem, and the set and its items are written in one transaction, so a bad file never leaves
 * half a set behind; `dryRun` returns the same answer without writing anything.
 *
 * This file does not read the registry (item-sets.ts does): a task's importers call it with their own kind.
 */
import { createHash } from "node:crypto";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { AppError, PayloadTooLargeError } from "../errors";
import { NUL_BYTE_MESSAGE, nulBytePath } from "../validation/nul-bytes";
import {
  MAX_ITEM_SET_FILE_BYTES,
  type ItemFile,
  type ItemFileProblem,
  type ItemSetImportOptions,
  type ItemSetKind,
} from "../task-modules/item-set-kind";

export type { ItemFile };

const at = (line: number | null) => (line === null ? "" : `line ${line}: `);

/** The file could be read but its content is refused; every problem is in `details.errors` with its line. */
export class ItemFileError extends AppError {
  constructor(fileName: string, errors: ItemFileProblem[], unmatched: string[] = []) {
    const shown = errors
      .slice(0, 3)
      .map((error) => `${at(error.line)}${error.message}`)
      .join("; ");
    const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
    super(422, "invalid_file", `${fileName}: nothing was imported: ${shown}${more}.`, { errors, unmatched });
  }
}

export interface ItemSetView {
  id: string;
  kind: string;
  name: string;
  model: string | null;
  referenceSetId: string | null;
  fileName: string;
  sha256: string;
  itemCount: number;
  citation: string | null;
  importedAt: Date;
}

/** An import's answer: the stored set (on a dry run, what would be stored, without an id), then the kind's summary. */
export type ItemSetImport<Summary extends object> = {
  dryRun: boolean;
  set: ItemSetView | (Omit<ItemSetView, "id" | "importedAt"> & { id: null; importedAt: null });
} & Summary;

export const itemSetSelect = {
  id: true,
  kind: true,
  name: true,
  model: true,
  referenceSetId: true,
  fileName: true,
  sha256: true,
  itemCount: true,
  citation: true,
  importedAt: true,
} as const;

/** `a caption set file`, `a step annotation file`: the noun as a file. */
export const fileNounOf = (kind: Pick<ItemSetKind, "noun">) =>
  kind.noun.endsWith(" file") ? kind.noun : `${kind.noun} file`;

/**
 * Lines whose texts hold a NUL byte (U+0000, which a JSON string may spell "\u0000"): PostgreSQL cannot
 * store one, so they are errors of the file like any other, with their line.
 */
export function nulByteErrors(items: readonly { line: number }[]): ItemFileProblem[] {
  return items.flatMap(({ line, ...texts }) => {
    const path = nulBytePath(texts);
    return path ? [{ line, message: `${path}: ${NUL_BYTE_MESSAGE}` }] : [];
  });
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export function countBy<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return counts;
}

/** Rows are written in batches so a 10,000-line set is a few statements, all in the one transaction. */
export async function createItems(tx: Prisma.TransactionClient, rows: Prisma.ItemCreateManyInput[]) {
  for (let i = 0; i < rows.length; i += 1000) await tx.item.createMany({ data: rows.slice(i, i + 1000) });
}

/** Imports a file as a set of `kind` into the project (importers: the project's owners and editors). */
export async function importItemSetOfKind<Options extends ItemSetImportOptions, Summary extends object>(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  kind: ItemSetKind<Options, Summary>,
  file: ItemFile,
  options: Options,
): Promise<ItemSetImport<Summary>> {
  const { actor, projectId } = access;
  if (file.bytes.byteLength > MAX_ITEM_SET_FILE_BYTES) {
    throw new PayloadTooLargeError(
      `${file.fileName}: a ${fileNounOf(kind)} may be at most ${MAX_ITEM_SET_FILE_BYTES / (1024 * 1024)} MiB.`,
    );
  }
  const videos = await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } });
  const plan = await kind.plan({ prisma, projectId, file, options, videos });
  const { name, model, referenceSetId, citation } = plan.set;
  const set = {
    kind: kind.id,
    name,
    model,
    referenceSetId,
    fileName: file.fileName,
    sha256: sha256(file.bytes),
    itemCount: plan.items.length,
    citation,
  };
  if (options.dryRun) return { dryRun: true, set: { ...set, id: null, importedAt: null }, ...plan.summary };

  const stored = await prisma.$transaction(
    async (tx) => {
      const created = await tx.itemSet.create({
        data: { ...set, projectId, importedById: actor.userId },
        select: itemSetSelect,
      });
      await createItems(
        tx,
        plan.items.map((item) => ({ ...item, projectId, setId: created.id })),
      );
      return created;
    },
    { timeout: 120_000 },
  );
  return { dryRun: false, set: { ...stored, kind: kind.id }, ...plan.summary };
}
