/**
 * AnyCapEval's caption types. The style types are judged with the caption rubric (seed 003), the content
 * types with the key-point check. Types outside both lists are kept as the file gives them: a reference
 * set may bring types FrameJury does not know yet, and dropping or renaming them would lose data.
 */
export const CAPTION_STYLE_TYPES = ["brief", "detail", "poem", "narrative", "theme"] as const;
export const CAPTION_CONTENT_TYPES = ["action", "background", "event", "instance", "perspective", "position"] as const;

/** The types the mandatory ±10% word-count rule of seed 003 covers. */
export const LENGTH_RULE_TYPES = ["brief", "detail"] as const;

export type CaptionStyleType = (typeof CAPTION_STYLE_TYPES)[number];
export type CaptionContentType = (typeof CAPTION_CONTENT_TYPES)[number];

export function isStyleCaptionType(type: string): type is CaptionStyleType {
  return (CAPTION_STYLE_TYPES as readonly string[]).includes(type);
}

export function isContentCaptionType(type: string): type is CaptionContentType {
  return (CAPTION_CONTENT_TYPES as readonly string[]).includes(type);
}

/**
 * The name the rubric prompt uses for a stored type. AnyCapEval calls the rubric's "style" captions
 * "theme"; the stored type stays "theme" (it is what the file said), only the prompt's {caption_type} says "style".
 */
export function promptCaptionType(storedType: string): string {
  return storedType === "theme" ? "style" : storedType;
}

/** A caption type's name and what it means, for the legend and the code tooltips. */
export function captionTypeMeaning(type: string): { id: string; label: string; definition: string } {
  if (isStyleCaptionType(type)) {
    return {
      id: type,
      label: type === "theme" ? "theme (the rubric's style)" : type,
      definition: `AnyCapEval style caption type; judged with seed 003's 0–4 rubric (caption_style)${(LENGTH_RULE_TYPES as readonly string[]).includes(type) ? ", under the mandatory ±10% word-count rule" : ""}.`,
    };
  }
  if (isContentCaptionType(type))
    return {
      id: type,
      label: type,
      definition: "AnyCapEval content caption type; judged by its key points, each hit or missed (caption_content).",
    };
  return {
    id: type,
    label: type,
    definition: "A caption type FrameJury does not know, kept as the file gave it; judged with the style rubric.",
  };
}
