/**
 * UVE-Bench's annotations (bytedance/UVE, annotations/annotations.json): one JSON object of items keyed by id, each
 * `{video_a, video_b, prompt, preference, aspect, subaspects, dataset}` with `preference` one of "A is better",
 * "B is better", "same good", "same bad" and the videos as `<generator>/…/<generator>_<clip>.mp4`. The generator is the
 * path's first folder; most items give no prompt (null), and then the pair's prompt is the matched video's, else
 * `<dataset>:<clip number>` (both videos of an item share the clip number). `subaspects` are not kept: each item is
 * one vote on its `aspect`. The annotations are a consensus, so the file is one annotator (`rater`, "uve" unless given).
 */
import type { Verdict } from "../../verdicts";
import { pairKeyOf, readingOf, requiredCell, RowRefusal, textCell, type PairwiseImportFormat } from "./format";

const PREFERENCES: Record<string, Verdict> = {
  "A is better": "A",
  "B is better": "B",
  "same good": "tie_good",
  "same bad": "tie_bad",
};

function generatorOfPath(path: string): string | null {
  const parts = path.replaceAll("\\", "/").split("/").filter(Boolean);
  return parts.length > 1 ? parts[0]! : null;
}

function clipNumberOf(path: string): string | null {
  return /(\d+)\.[a-z0-9]+$/i.exec(path)?.[1] ?? null;
}

export const uveFormat: PairwiseImportFormat = {
  id: "uve",
  label: "UVE-Bench annotations (JSON)",
  reader: "json",
  columns: { video_a: "video_a", video_b: "video_b", prompt: "prompt", verdict: "preference", aspect: "aspect" },
  readRecord({ row, fields }, { column, options }) {
    return readingOf(row, () => {
      const videoA = requiredCell(fields, column("video_a"));
      const videoB = requiredCell(fields, column("video_b"));
      const preference = requiredCell(fields, column("verdict"));
      const verdict = Object.hasOwn(PREFERENCES, preference) ? PREFERENCES[preference]! : null;
      if (!verdict) throw new RowRefusal("unknown_verdict", `"${preference}" is not a UVE-Bench preference`);
      const prompt = textCell(fields, column("prompt"));
      const clip = clipNumberOf(videoA);
      const promptFallback =
        prompt === null && clip !== null && clip === clipNumberOf(videoB)
          ? `${textCell(fields, "dataset") ?? "uve"}:${clip}`
          : null;
      const pair = {
        prompt,
        promptFallback,
        generatorA: generatorOfPath(videoA),
        generatorB: generatorOfPath(videoB),
        videoA,
        videoB,
        sha256A: null,
        sha256B: null,
      };
      return [
        {
          row,
          ...pair,
          pairKey: pairKeyOf(pair),
          aspect: requiredCell(fields, column("aspect")),
          rater: options.rater ?? "uve",
          verdict,
          strength: 1,
        },
      ];
    });
  },
};
