import { describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { errorBodyExcerpt, stepErrorMessage, withoutServerDetails } from "./step-errors";

describe("stepErrorMessage", () => {
  it("gives an unexpected error's class, code and first words, without its stack or the paths in its message", () => {
    const error = Object.assign(
      new Error("ENOENT: no such file or directory, open '/tmp/framejury-storage-x/objects/frames/p/1.jpg'"),
      { code: "ENOENT" },
    );
    expect(error.stack).toContain("step-errors.test.ts");
    const message = stepErrorMessage(error);
    expect(message).toBe(
      "Error ENOENT: ENOENT: no such file or directory, open '[path]' (details are in the worker log)",
    );
    expect(message).not.toContain("step-errors.test.ts");
  });

  it("keeps the app's own messages as they are, on one line", () => {
    expect(stepErrorMessage(new AppError(400, "x", "3 frames are missing.\nTry again."))).toBe(
      "3 frames are missing. Try again.",
    );
    expect(stepErrorMessage("thrown string")).toBe("Error: thrown string (details are in the worker log)");
  });
});

describe("withoutServerDetails", () => {
  it("drops stack frames, numbered code lines and Windows or file:// paths", () => {
    const text =
      "TypeError: x is undefined\n    at run (/srv/app/lib/a.ts:3:9)\n→ 12 const y = x.z;\nwhile reading C:\\app\\data\\f.json and file:///srv/app/b.js:1:2";
    expect(withoutServerDetails(text)).toBe("TypeError: x is undefined while reading [path] and [path]");
  });
});

describe("errorBodyExcerpt", () => {
  it("is at most 200 characters, on one line, without keys or bearer tokens", () => {
    const excerpt = errorBodyExcerpt(
      `Bearer abcdefghijklmnop rejected;\r\n api_key="zzzzzzzzzz" my-own-key ${"y".repeat(400)}`,
      ["my-own-key"],
    )!;
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(excerpt).not.toMatch(/[\r\n]/);
    expect(excerpt).not.toContain("abcdefghijklmnop");
    expect(excerpt).not.toContain("zzzzzzzzzz");
    expect(excerpt).not.toContain("my-own-key");
    expect(excerpt.startsWith('[redacted] rejected; api_key="[redacted]')).toBe(true);
    expect(errorBodyExcerpt("")).toBeNull();
  });
});
