/**
 * What a task tells the core about a kind of item set it imports (a caption reference set, a question set,
 * step annotations): its id, how its file is named in messages, and how a file of it becomes items. The task
 * module lists its kinds (`itemSetKinds`); the core (lib/items: item-set-import.ts, item-sets.ts) checks permission and
 * size, hands the file to the kind, and writes the set and its items in one transaction.
 *
 * Plain types and one constant: the import panels' parsers (browser code) share the file limit.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";

/** Largest item set file accepted, in bytes (read whole into memory; AnyCapEval's whole video reference set is under 1 MiB). */
export const MAX_ITEM_SET_FILE_BYTES = 64 * 1024 * 1024;

export interface ItemFile {
  fileName: string;
  bytes: Uint8Array;
}

/** One problem of an item file: its 1-based line (a CSV record's first line), or null for the whole file. */
export interface ItemFileProblem {
  line: number | null;
  message: string;
}

/** The options every import takes; a kind may take more (a model's outputs name the model). */
export interface ItemSetImportOptions {
  name?: string;
  citation?: string;
  dryRun?: boolean;
}

/** What a kind reads a file against. */
export interface ItemSetImportContext<Options extends ItemSetImportOptions> {
  /** For reads only: the core writes, in its transaction. */
  prisma: PrismaClient;
  projectId: string;
  file: ItemFile;
  options: Options;
  /** The project's videos; a file names them by their imported path's file name. */
  videos: readonly { id: string; relativePath: string }[];
}

/** An item to write; the core adds the project and the set. */
export type NewItem = Omit<Prisma.ItemCreateManyInput, "projectId" | "setId">;

/** A file read into a set: what to store, and what the import answers about it (spread into the answer). */
export interface ItemSetPlan<Summary extends object> {
  set: { name: string; model: string | null; referenceSetId: string | null; citation: string | null };
  items: NewItem[];
  summary: Summary;
}

export interface ItemSetKind<
  Options extends ItemSetImportOptions = ItemSetImportOptions,
  Summary extends object = object,
> {
  /** Stored as the set's `kind`. */
  id: string;
  /** The file in messages ("a question set file may be at most …"). */
  noun: string;
  /** The file name an upload that gives none is stored under. */
  defaultFileName: string;
  /** The kind of the sets that answer a set of this one (a reference set's model outputs): listings show them as its `outputs`. */
  outputsKind?: string;
  /**
   * Reads the file against the project: every item to write, or an ItemFileError with every problem
   * (nothing is written then). Runs after the core checked the actor's permission and the file's size.
   */
  plan(context: ItemSetImportContext<Options>): Promise<ItemSetPlan<Summary>>;
  /**
   * How the item list (lib/items/items.ts: the list API and one item by id) shows this set's items: their
   * `item.kind`, and the fields it adds to the core's for one of them. A kind without it is not offered by
   * the list's `kind` filter. `listedByDefault`: the kind the list shows when a query names none (and
   * whose noun a missing item's 404 uses).
   */
  itemList?: ItemListDeclaration;
  /**
   * The uniform frame set runs over this set's items need (the Extract pending page lists the videos that
   * lack it): `itemKind` names the items, `itemsNoun` them in its messages ("captions"), and
   * `atPlannedSize` says the set is wanted at the run's planned frame size (`?resize=` / `?longestSide=`).
   */
  uniformFrames?: {
    itemKind: string;
    itemsNoun: string;
    atPlannedSize: boolean;
    /** The runs that need the set, as the pending page names them ("caption runs"). */ runsNoun: string;
  };
}

/** An item as the item list reads it (its set's `itemList.view` adds the kind's own fields). */
export interface ListedItemRow {
  group: string;
  payload: Prisma.JsonValue;
  /** The item this one answers (a model's output answers a reference), if any. */
  referenceItem: { id: string; externalId: string; setId: string; payload: Prisma.JsonValue } | null;
}

/**
 * What the item list shows of each listed kind, by `item.kind`, for typed reads: a task's folder adds its
 * kinds by declaration merging (`declare module ".../task-modules/item-set-kind" { interface ItemListViews { … } }`)
 * beside its ItemListDeclaration, so the core's answer is typed without naming them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the task folders' declaration merging
export interface ItemListViews {}

export interface ItemListDeclaration {
  /** The `item.kind` of the set's items. */
  itemKind: string;
  /** One of them in messages ("caption"). */
  itemNoun: string;
  listedByDefault?: boolean;
  /** The kind's own fields of one item in the list's answer (beside id, kind, setId, externalId, model, video, createdAt). */
  view(item: ListedItemRow): object;
}
