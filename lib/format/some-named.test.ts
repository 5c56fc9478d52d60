import { describe, expect, it } from "vitest";
import { someNamed } from "./some-named";

describe("someNamed", () => {
  it("names them all up to the limit, and counts the rest beyond it", () => {
    expect(someNamed([], 2)).toBe("");
    expect(someNamed(["a", "b"], 2)).toBe("a, b");
    expect(someNamed(["a", "b", "c", "d"], 2)).toBe("a, b and 2 more");
  });
});

describe("someNamed with a length for each name", () => {
  it("keeps a long name's start and end around an ellipsis, and a short one whole", () => {
    const prompt = "A".repeat(180);
    const long = `Mechanics/${prompt}-2.mp4`;
    const shortened = someNamed([long, "b.mp4"], 2, 72);
    const [first] = shortened.split(", ");
    expect(first!.length).toBeLessThanOrEqual(72);
    expect(first!.startsWith("Mechanics/AAAA")).toBe(true);
    expect(first!.endsWith("…AAAAA-2.mp4")).toBe(true);
    expect(shortened.endsWith(", b.mp4")).toBe(true);
    expect(someNamed([long], 1)).toBe(long);
  });
});
