import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHARED_DIR, sharedDataPath } from "./shared-data";

describe("sharedDataPath", () => {
  it("names the missing file and what to do, instead of a bare ENOENT", () => {
    expect(() => sharedDataPath("no-such-folder/file.txt")).toThrow(
      `${path.join(SHARED_DIR, "no-such-folder/file.txt")} is missing: this test reads the user's data in ../shared, next to the checkout`,
    );
    expect(() => sharedDataPath("no-such-folder/file.txt")).toThrow(
      "Clone the repository next to shared/, or link shared/ there (docs/testing.md).",
    );
  });

  it("gives the path of data that is there", () => {
    expect(sharedDataPath("vbench2-prompts")).toBe(path.join(SHARED_DIR, "vbench2-prompts"));
  });
});
