import { describe, expect, it } from "vitest";
import { missingTargetsMessage, NAMED_UP_TO } from "./missing-targets";

describe("the review screen's message for targets left without a value", () => {
  it("names a few missing targets", () => {
    expect(missingTargetsMessage(["s1 · key frame 1", "s2 · key frame 1"], 2)).toBe(
      "Judge every target before submitting; missing: s1 · key frame 1, s2 · key frame 1.",
    );
    const labels = Array.from({ length: NAMED_UP_TO }, (_, i) => `t${i}`);
    expect(missingTargetsMessage(labels, 10)).toContain(`missing: ${labels.join(", ")}.`);
  });

  it("gives only the count when many are missing, never the list", () => {
    const labels = Array.from({ length: 95 }, (_, i) => `s1 · key frame ${i + 1}`);
    const message = missingTargetsMessage(labels, 96);
    expect(message).toBe("Judge every target before submitting: 95 of 96 still need a value.");
    expect(message).not.toContain("key frame");
  });
});
