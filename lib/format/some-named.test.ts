import { describe, expect, it } from "vitest";
import { someNamed } from "./some-named";

describe("someNamed", () => {
  it("names them all up to the limit, and counts the rest beyond it", () => {
    expect(someNamed([], 2)).toBe("");
    expect(someNamed(["a", "b"], 2)).toBe("a, b");
    expect(someNamed(["a", "b", "c", "d"], 2)).toBe("a, b and 2 more");
  });
});
