import { describe, expect, it } from "vitest";
import { isAppError, PayloadTooLargeError } from "../errors";
import { errorResponse } from "./handler";

/**
 * An app error as another server bundle's copy of lib/errors.ts makes it: not an instance of this copy's class,
 * only carrying the mark every AppError carries (the zip-bomb label sheet's 413 came back as a 500 this way).
 */
function fromAnotherCopy(
  fields: { status: number; code: string; message: string },
  base: object = new Error(fields.message),
) {
  return Object.assign(base, { status: fields.status, code: fields.code, [Symbol.for("framejury.app-error")]: true });
}

const workbook = {
  status: 413,
  code: "too_large",
  message: "The workbook is too large: its files unpack to 374 MiB, more than the limit of 96 MiB.",
};

async function bodyOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("errorResponse recognises the app's errors by their mark, not their class", () => {
  it("keeps the status, code and message of an Error from another copy of the class", async () => {
    const response = errorResponse(fromAnotherCopy(workbook));
    expect(response.status).toBe(413);
    expect(await bodyOf(response)).toEqual({ code: "too_large", message: workbook.message });
  });

  it("does so for a plain object carrying the mark too", async () => {
    const response = errorResponse(fromAnotherCopy(workbook, { message: workbook.message }));
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).code).toBe("too_large");
  });

  it("still maps this copy's own classes", async () => {
    const response = errorResponse(new PayloadTooLargeError("Too big.", { limitBytes: 10 }));
    expect(response.status).toBe(413);
    expect(isAppError(new PayloadTooLargeError("x"))).toBe(true);
  });

  it("never takes another error with a code (Node's, Prisma's) for one: a 500 that does not leak its message", async () => {
    for (const error of [
      Object.assign(new Error("ENOENT: /secret/path"), { code: "ENOENT", status: 404 }),
      Object.assign(new Error("Unique constraint failed"), { code: "P2002" }),
      fromAnotherCopy({ status: 200, code: "ok", message: "not an error status" }),
    ]) {
      const response = errorResponse(error);
      expect(response.status).toBe(500);
      expect((await bodyOf(response)).message).toBe("Something went wrong on the server.");
    }
  });
});

describe("no handler recognises the app's errors by class", () => {
  it("app/ and lib/ never test `instanceof AppError`, and app/ never `instanceof` of its subclasses", async () => {
    const { execFileSync } = await import("node:child_process");
    const grep = (pattern: string, dirs: string[]) => {
      try {
        return execFileSync(
          "grep",
          [
            "-rlE",
            "--include=*.ts",
            "--include=*.tsx",
            "--exclude=*.test.ts",
            "--exclude=*.test.tsx",
            pattern,
            ...dirs,
          ],
          { encoding: "utf8" },
        ).trim();
      } catch {
        return ""; // grep exits 1 when nothing matches
      }
    };
    expect(grep("instanceof AppError\\b", ["app", "lib"])).toBe("");
    expect(
      grep(
        "instanceof (NotFoundError|ValidationError|ForbiddenError|UnauthorizedError|ConflictError|PayloadTooLargeError)\\b",
        ["app"],
      ),
    ).toBe("");
  });
});
