/** Reading a caption item of a run's context (lib/items stores them): its output and its reference. */
import type { ItemRef } from "../../judge/engine/pipeline";
import type { CaptionPayload, ReferencePayload } from "../../items/items";

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
