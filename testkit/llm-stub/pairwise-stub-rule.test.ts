import { describe, expect, it } from "vitest";
import { makeContext } from "./stub-rule";
import { PAIRWISE_PROMPT_MARKER, PAIRWISE_STUB_RULE } from "./pairwise-stub-rule";

const frames = (video: string) => [0, 1, 2].map((i) => `data:image/jpeg;base64,${video}${i}`);
/** The request of one order: the first video's images, then the second's, with the frame list. */
function ask(first: string, second: string, model = "stub-vision") {
  const text = `${PAIRWISE_PROMPT_MARKER}\nVideo A: images 1–3, at 0.0 s\nVideo B: images 4–6, at 0.0 s`;
  const urls = [...frames(first), ...frames(second)];
  return PAIRWISE_STUB_RULE.respond(makeContext(text, urls, false, model, 0, urls))
    .split("\n")
    .at(-1)!;
}
const unswap = (label: string) => (label === "[[A>B]]" ? "[[B>A]]" : label === "[[B>A]]" ? "[[A>B]]" : label);

describe("the stub's pairwise rule", () => {
  it("prefers the same video in both orders, whatever side it is shown on", () => {
    for (const [x, y] of [
      ["red", "blue"],
      ["cat", "dog"],
      ["one", "two"],
      ["sun", "moon"],
    ])
      expect(unswap(ask(y!, x!))).toBe(ask(x!, y!));
  });

  it("always picks the first video with the first-bias knob, and gives no label with no-label", () => {
    expect(ask("red", "blue", "stub-first-bias")).toBe("[[A>B]]");
    expect(ask("blue", "red", "stub-first-bias")).toBe("[[A>B]]");
    expect(PAIRWISE_STUB_RULE.respond(makeContext(PAIRWISE_PROMPT_MARKER, [], false, "stub-no-label"))).not.toMatch(
      /\[\[/,
    );
  });
});
