import type { CaptionRunResult, ContentResult, StyleResult } from "./caption-run-results";

/**
 * A caption's results (per-caption lists, exports, the caption page) for a blind video: every value the
 * caption runs' scoring steps produced is withheld (the judge's scores and reasons, the length rules with
 * their counts, the cap and the flags, the key points' scores and reasons); what was imported stays (the
 * instruction, the reference, the output, the key points' text) and so does whether each step finished.
 * Each field is named, so a field added to the results does not reach a blind reviewer unnoticed. The
 * captions task's `redactResult` (lib/visibility applies it).
 */
export function withheldCaptionResult<C extends CaptionRunResult>(caption: C): C {
  return {
    ...caption,
    ...(caption.style ? { style: withheldStyle(caption.style) } : {}),
    ...(caption.content ? { content: withheldContent(caption.content) } : {}),
  };
}

function withheldStyle(style: StyleResult): StyleResult {
  return {
    status: style.status,
    error: null,
    rawScore: null,
    reason: null,
    counts: null,
    rules: null,
    cap: null,
    scoreAfterRules: null,
    countedScore: null,
    counted: null,
    flags: null,
  };
}

function withheldContent(content: ContentResult): ContentResult {
  return {
    status: content.status,
    error: null,
    keyPoints: content.keyPoints.map((kp) => ({ index: kp.index, keyPoint: kp.keyPoint, score: null, reason: null })),
    hit: null,
    total: content.total,
    coverage: null,
  };
}
