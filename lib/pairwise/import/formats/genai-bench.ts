/**
 * GenAI-Bench's pairwise judge outputs (TIGER-AI-Lab/GenAI-Bench, results/video_generation/<judge>/pairwise.jsonl):
 * JSON Lines of `{idx, prompt, response, model_vote, human_vote, correct}`. Each row holds two raters' votes on one
 * pair: the people's (`human_vote`: leftvote, rightvote, tievote, bothbad_vote; kept as rater "human") and the judge's
 * (`model_vote`: [[A>B]], [[A>>B]], [[B>A]], [[B>>A]], [[A=B=Good]], [[A=B=Bad]], or [[A=B]], read as tie_good as
 * GenAI-Bench's own scoring accepts it for a tie; kept as rater `judge`, "judge" unless given). A judge answer with no
 * label (model_vote null) is refused for the judge while the human's vote is kept. The result files name no
 * generators or videos (they are in the GenAI-Bench dataset, by row): the default mapping is the dataset's own column
 * names (its card's features `left_model`/`right_model`; `left_video`/`right_video`, the video keys its
 * inference_configs.json reads), for rows the dataset was joined onto by `idx`; otherwise the generators are read as
 * "left" and "right".
 * The pair's key is `idx`; the aspect is `aspect` ("overall").
 */
import type { Verdict } from "../../verdicts";
import {
  raterRefusal,
  readingOf,
  requiredCell,
  RowRefusal,
  textCell,
  type PairwiseImportFormat,
  type VerdictReading,
} from "./format";
import type { SourceVote } from "../import.types";

const HUMAN_VOTES: Record<string, Verdict> = {
  leftvote: "A",
  rightvote: "B",
  tievote: "tie_good",
  bothbad_vote: "tie_bad",
};

/** A judge's verdict label as GenAI-Bench's parse_response finds it (`[[…]]`), case of "good"/"bad" ignored. */
export function genaiBenchModelVote(label: string): VerdictReading | null {
  switch (label.replace(/\s+/g, "").toLowerCase()) {
    case "[[a>b]]":
      return { verdict: "A", strength: 1 };
    case "[[a>>b]]":
      return { verdict: "A", strength: 2 };
    case "[[b>a]]":
      return { verdict: "B", strength: 1 };
    case "[[b>>a]]":
      return { verdict: "B", strength: 2 };
    case "[[a=b=good]]":
      return { verdict: "tie_good", strength: 1 };
    case "[[a=b=bad]]":
      return { verdict: "tie_bad", strength: 1 };
    case "[[a=b]]":
      return { verdict: "tie_good", strength: 1, interpretation: "[[A=B]] read as tie_good" };
    default:
      return null;
  }
}

export const genaiBenchFormat: PairwiseImportFormat = {
  id: "genai-bench",
  label: "GenAI-Bench pairwise judge outputs (JSON Lines)",
  reader: "json",
  columns: { generator_a: "left_model", generator_b: "right_model", video_a: "left_video", video_b: "right_video" },
  readRecord({ row, fields }, { column, options }) {
    const refusals: ReturnType<typeof raterRefusal>[] = [];
    const reading = readingOf(row, (interpret) => {
      const idx = textCell(fields, "idx") ?? String(row);
      let generatorA = textCell(fields, column("generator_a"));
      let generatorB = textCell(fields, column("generator_b"));
      if (generatorA === null || generatorB === null) {
        generatorA ??= "left";
        generatorB ??= "right";
        interpret('no generator columns: the generators are read as "left" and "right"');
      }
      const pair = {
        row,
        pairKey: JSON.stringify(["idx", idx]),
        prompt: requiredCell(fields, column("prompt")),
        generatorA,
        generatorB,
        videoA: textCell(fields, column("video_a")),
        videoB: textCell(fields, column("video_b")),
        sha256A: null,
        sha256B: null,
        aspect: options.aspect ?? "overall",
      };
      const votes: SourceVote[] = [];
      const judge = options.judge ?? "judge";
      try {
        const human = requiredCell(fields, "human_vote");
        const verdict = Object.hasOwn(HUMAN_VOTES, human) ? HUMAN_VOTES[human]! : null;
        if (!verdict) throw new RowRefusal("unknown_verdict", `"${human}" is not a GenAI-Bench human vote`);
        if (human === "tievote") interpret("tievote read as tie_good");
        votes.push({ ...pair, rater: "human", verdict, strength: 1 });
      } catch (error) {
        refusals.push(raterRefusal(row, "human", error));
      }
      try {
        const label = textCell(fields, "model_vote");
        if (label === null) throw new RowRefusal("no_verdict_label", "the judge's answer holds no verdict label");
        const read = genaiBenchModelVote(label);
        if (!read) throw new RowRefusal("unknown_verdict", `"${label}" is not a GenAI-Bench verdict label`);
        if (read.interpretation) interpret(read.interpretation);
        votes.push({ ...pair, rater: judge, verdict: read.verdict, strength: read.strength });
      } catch (error) {
        refusals.push(raterRefusal(row, judge, error));
      }
      return votes;
    });
    return { ...reading, refusals: [...reading.refusals, ...refusals] };
  },
};
