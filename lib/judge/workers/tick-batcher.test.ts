import { describe, expect, it } from "vitest";
import { TickBatcher } from "./tick-batcher";

describe("TickBatcher", () => {
  it("answers the asks of one turn in one call, at most maxBatch at a time", async () => {
    const calls: number[][] = [];
    const batcher = new TickBatcher<number, number>(
      async (inputs) => (calls.push(inputs), inputs.map((n) => n * 2)),
      3,
    );
    expect(await Promise.all([1, 2, 3, 4].map((n) => batcher.ask(n)))).toEqual([2, 4, 6, 8]);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it("asks again one by one after a failed batch, says so once with its error, and fails only the bad ask", async () => {
    const failures: [string, number][] = [];
    const batcher = new TickBatcher<number, number>(
      async (inputs) => {
        if (inputs.includes(2)) throw new Error(`bad: ${inputs.join(",")}`);
        return inputs;
      },
      10,
      (error, asks) => failures.push([(error as Error).message, asks]),
    );
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => batcher.ask(n)));
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual([
      1,
      "bad: 2",
      3,
    ]);
    expect(failures).toEqual([["bad: 1,2,3", 3]]);
  });
});
