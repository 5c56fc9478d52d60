import { describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { asStoredJson } from "./stored-json";

describe("asStoredJson", () => {
  it("orders keys as jsonb gives them back, at every depth", async () => {
    const value = {
      zebra: 1,
      a: {
        changes: {
          "the ball rolls": "faster",
          cup: "moves",
          é: "x",
          e: "y",
          ab: "z",
          "🙂": "smile",
          "\uE000": "private",
        },
      },
      list: [{ longer_key: true, k: false }, 3, "s", null],
      bb: undefined,
    };
    const [row] = await prisma.$queryRaw<{ text: string }[]>`SELECT ${JSON.stringify(value)}::jsonb::text AS text`;
    const fromDatabase = JSON.parse(row!.text) as unknown;
    // Same key order, not just the same value: a prompt built with JSON.stringify shows the order.
    expect(JSON.stringify(asStoredJson(value))).toBe(JSON.stringify(fromDatabase));
    expect(JSON.stringify(value)).not.toBe(JSON.stringify(fromDatabase));
  });
});
