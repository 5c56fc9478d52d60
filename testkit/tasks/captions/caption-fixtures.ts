/**
 * TEST TOOL: caption set files for tests, shaped like AnyCapEval's reference JSONL and models' outputs,
 * written for the videos of testkit/testing/judge-fixtures.ts (testkit/testing/item-files.ts names them).
 */
import { fixtureVideoName } from "../../testing/item-files";

export interface ReferenceLine {
  id: number | string;
  video: string;
  conversations: { from: string; value: string }[];
  restriction: [string, string];
  key_point?: string[];
}

export function referenceLine(
  id: number | string,
  video: string,
  type: string,
  options: { instruction?: string; reference?: string; rule?: string; keyPoints?: string[] } = {},
): ReferenceLine {
  return {
    id,
    video,
    conversations: [
      { from: "human", value: options.instruction ?? `<video>\nDescribe the video as a ${type} caption.` },
      { from: "gpt", value: options.reference ?? `A red ball rolls down a wooden ramp and stops at the bottom.` },
    ],
    restriction: [type, options.rule ?? ""],
    ...(options.keyPoints ? { key_point: options.keyPoints } : {}),
  };
}

/** A small reference set over two fixture videos: brief, detail, poem and action (with key points). */
export function smallReferenceSet(): ReferenceLine[] {
  return [
    referenceLine(1, fixtureVideoName(0), "brief", {
      reference: "A red ball rolls down a wooden ramp and stops at the bottom.",
    }),
    referenceLine(2, fixtureVideoName(1), "detail", {
      rule: "The generated caption's length cannot exceed two sentences.",
      reference:
        "A small red rubber ball starts at the top of a long wooden ramp, rolls steadily downward past a blue marker, and comes to rest on the grey floor.",
    }),
    referenceLine(3, fixtureVideoName(0), "poem", {
      reference: "Down the ramp the red ball flies,\nresting where the shadow lies.",
    }),
    referenceLine(4, fixtureVideoName(1), "action", {
      instruction:
        "<video>\nDescribe the actions in the video. The generated caption's length cannot exceed two sentences.",
      rule: "The generated caption's length cannot exceed two sentences.",
      keyPoints: ["the ball rolls down the ramp", "the ball stops on the floor", "a hand pushes the ball"],
    }),
  ];
}
