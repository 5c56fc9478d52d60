import { describe, expect, it } from "vitest";
import { presenceKey, PRESENCE_KEY_SET } from "./presence-keys";

describe("presence toggle keys", () => {
  it("gives the first ten categories their number and the next ones letters the review screen leaves free", () => {
    expect(Array.from({ length: 12 }, (_, i) => presenceKey(i))).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
      "0",
      "q",
      "w",
    ]);
    expect(presenceKey(30)).toBeNull();
    // j/k move, y/n answer verdicts, a/A accept, m writes a note, ? helps, Enter goes on: none toggles a category.
    for (const taken of ["j", "k", "y", "n", "a", "A", "m", "?", "Enter", " "])
      expect(PRESENCE_KEY_SET.has(taken)).toBe(false);
    expect(PRESENCE_KEY_SET.size).toBe(29);
  });
});
