/**
 * The generic pairwise files, CSV (with a header) or JSON Lines, one vote a row: `video_a`, `video_b` (a path in the
 * project or a file name), `verdict` (A, B, tie_good, tie_bad), `aspect` ("overall" when the file has no aspect
 * column), `rater`, and optionally `prompt`, `generator_a`, `generator_b`, `strength` (1, or 2 for a strong
 * preference) and `sha256_a`, `sha256_b` (a video named by its content). A row may name no videos when it gives the
 * prompt and both generators. FrameJury's own vote export writes this shape, so an export imports again.
 */
import { VERDICTS, type Strength, type Verdict } from "../../verdicts";
import type { SourceVote } from "../import.types";
import { pairKeyOf, readingOf, requiredCell, RowRefusal, textCell, type PairwiseImportFormat } from "./format";

function strengthOf(text: string | null, verdict: Verdict): Strength {
  if (text === null || text === "1") return 1;
  if (text !== "2") throw new RowRefusal("bad_strength", `strength "${text}" is neither 1 nor 2`);
  if (verdict === "tie_good" || verdict === "tie_bad")
    throw new RowRefusal("bad_strength", "a tie has no strength: strength 2 is for A or B");
  return 2;
}

function genericFormat(id: "csv" | "jsonl"): PairwiseImportFormat {
  return {
    id,
    label: id === "csv" ? "Generic CSV" : "Generic JSON Lines",
    reader: id,
    columns: {},
    readRecord({ row, fields }, { column, options }) {
      return readingOf(row, (interpret) => {
        const verdictText = requiredCell(fields, column("verdict"));
        if (!(VERDICTS as readonly string[]).includes(verdictText))
          throw new RowRefusal("unknown_verdict", `"${verdictText}" is not one of ${VERDICTS.join(", ")}`);
        const verdict = verdictText as Verdict;
        let aspect = textCell(fields, column("aspect"));
        if (aspect === null) {
          aspect = options.aspect ?? "overall";
          interpret(`no aspect: read as "${aspect}"`);
        }
        const pair = {
          prompt: textCell(fields, column("prompt")),
          generatorA: textCell(fields, column("generator_a")),
          generatorB: textCell(fields, column("generator_b")),
          videoA: textCell(fields, column("video_a")),
          videoB: textCell(fields, column("video_b")),
          sha256A: textCell(fields, column("sha256_a"))?.toLowerCase() ?? null,
          sha256B: textCell(fields, column("sha256_b"))?.toLowerCase() ?? null,
        };
        if (!(pair.videoA || pair.sha256A) && !(pair.prompt && pair.generatorA))
          throw new RowRefusal("missing_column", 'the row names no video A ("video_a") and no prompt and generator A');
        if (!(pair.videoB || pair.sha256B) && !(pair.prompt && pair.generatorB))
          throw new RowRefusal("missing_column", 'the row names no video B ("video_b") and no prompt and generator B');
        const vote: SourceVote = {
          row,
          ...pair,
          pairKey: pairKeyOf(pair),
          aspect,
          rater: requiredCell(fields, column("rater")),
          verdict,
          strength: strengthOf(textCell(fields, column("strength")), verdict),
        };
        return [vote];
      });
    },
  };
}

export const csvFormat = genericFormat("csv");
export const jsonlFormat = genericFormat("jsonl");
