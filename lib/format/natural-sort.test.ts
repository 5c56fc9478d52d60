import { describe, expect, it } from "vitest";
import { naturalCompare, naturalSortBy } from "./natural-sort";

describe("natural order", () => {
  it("orders numbered names by their numbers, not their characters (issue 38 §5.6: the run page sorted 1, 10, 2, 5)", () => {
    expect(["10.mp4", "2.mp4", "1.mp4", "5.mp4"].sort(naturalCompare)).toEqual(["1.mp4", "2.mp4", "5.mp4", "10.mp4"]);
    expect(["clip-10", "clip-9", "clip-100", "clip-1"].sort(naturalCompare)).toEqual([
      "clip-1",
      "clip-9",
      "clip-10",
      "clip-100",
    ]);
  });

  it("orders paths folder by folder, and numbers inside a name too", () => {
    const paths = [
      "Sora/Mechanics/ball-10.mp4",
      "Pika/Mechanics/ball-2.mp4",
      "Sora/Mechanics/ball-2.mp4",
      "Sora/Dimension 10/a-0.mp4",
      "Sora/Dimension 9/a-0.mp4",
    ];
    expect(paths.sort(naturalCompare)).toEqual([
      "Pika/Mechanics/ball-2.mp4",
      "Sora/Dimension 9/a-0.mp4",
      "Sora/Dimension 10/a-0.mp4",
      "Sora/Mechanics/ball-2.mp4",
      "Sora/Mechanics/ball-10.mp4",
    ]);
  });

  it("ignores case first, compares long digit runs exactly and gives equal numbers with leading zeros one order", () => {
    expect(["b", "A", "a", "B"].sort(naturalCompare)).toEqual(["A", "a", "B", "b"]);
    expect(naturalCompare("id-90071992547409930", "id-90071992547409921")).toBeGreaterThan(0);
    expect(["7", "007", "07"].sort(naturalCompare)).toEqual(["7", "07", "007"]);
    expect(naturalCompare("x", "x")).toBe(0);
    expect(["a1", "a"].sort(naturalCompare)).toEqual(["a", "a1"]);
  });

  it("sorts rows by a key without changing the input", () => {
    const rows = [{ name: "v10" }, { name: "v2" }];
    expect(naturalSortBy(rows, (r) => r.name).map((r) => r.name)).toEqual(["v2", "v10"]);
    expect(rows[0]!.name).toBe("v10");
  });
});
