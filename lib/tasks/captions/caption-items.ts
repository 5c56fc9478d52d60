/**
 * The caption items (lib/items stores them): their payloads, what the item list shows of them, and a
 * caption of a run's context with its output and its reference.
 */
import type { Prisma } from "../../generated/prisma/client";
import type { ItemListDeclaration } from "../../task-modules/item-set-kind";
import type { ItemRef } from "../../task-modules/pipeline-types";

/** A reference item's payload as stored by importReferenceSet. */
export interface ReferencePayload {
  video: string;
  instruction: string;
  reference: string;
  /** [caption type, rule text] as the file gives them. */
  restriction: [string, string];
  keyPoints: string[] | null;
  line: number;
}

/** A caption item's payload as stored by importModelOutputs. */
export interface CaptionPayload {
  output: string;
  line: number;
}

interface ReferenceView {
  id: string;
  externalId: string;
  setId: string;
  instruction: string;
  reference: string;
  restriction: [string, string];
  keyPoints: string[] | null;
}

/** What the item list shows of the caption kinds (lib/items/items.ts's ItemView). */
declare module "../../task-modules/item-set-kind" {
  interface ItemListViews {
    caption_reference: { captionType: string } & Omit<ReferenceView, "id" | "externalId" | "setId">;
    caption: { captionType: string; output: string; reference: ReferenceView | null };
  }
}

function referenceView(reference: {
  id: string;
  externalId: string;
  setId: string;
  payload: Prisma.JsonValue;
}): ReferenceView {
  const payload = reference.payload as unknown as ReferencePayload;
  return {
    id: reference.id,
    externalId: reference.externalId,
    setId: reference.setId,
    instruction: payload.instruction,
    reference: payload.reference,
    restriction: payload.restriction,
    keyPoints: payload.keyPoints,
  };
}

/** The item list's view of a reference (GET …/captions?kind=caption_reference): its type and its texts. */
export const referenceItemList: ItemListDeclaration = {
  itemKind: "caption_reference",
  itemNoun: "caption reference",
  view(item) {
    const {
      id: _id,
      externalId: _externalId,
      setId: _setId,
      ...texts
    } = referenceView({ id: "", externalId: "", setId: "", payload: item.payload });
    return { captionType: item.group, ...texts };
  },
};

/** The item list's view of a model's caption (the list's default kind): its type, its output and its reference. */
export const captionItemList: ItemListDeclaration = {
  itemKind: "caption",
  itemNoun: "caption",
  listedByDefault: true,
  view(item) {
    return {
      captionType: item.group,
      output: (item.payload as unknown as CaptionPayload).output,
      reference: item.referenceItem ? referenceView(item.referenceItem) : null,
    };
  },
};

export interface CaptionForJudging {
  /** The stored caption type ("theme" stays "theme"). */
  captionType: string;
  output: string;
  instruction: string;
  reference: string;
  /** AnyCapEval's restriction rule text. */
  restriction: string;
  keyPoints: string[] | null;
}

export const NO_REFERENCE_REASON = "the caption has no reference item";

export function captionOf(item: ItemRef): CaptionForJudging {
  if (!item.reference) throw new Error(`Not run: ${NO_REFERENCE_REASON}.`);
  const reference = item.reference.payload as ReferencePayload;
  return {
    captionType: item.group,
    output: (item.payload as CaptionPayload).output,
    instruction: reference.instruction,
    reference: reference.reference,
    restriction: reference.restriction[1],
    keyPoints: reference.keyPoints,
  };
}
