/** The order blocks are cut from: the videos sorted by a hash of their ids, ties by index. */
import { describe, expect, it } from "vitest";
import { streamSeed } from "../../stats/bootstrap";
import { shuffledOrder } from "./bootstrap-rows";

describe("shuffledOrder", () => {
  it("sorts the indices by the ids' hashes, ties (the same id twice) by index", () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `video-${(i * 7919) % 2000}`);
    const hashes = ids.map((id) => streamSeed(5, id));
    const expected = Array.from(ids.keys()).sort((a, b) => hashes[a]! - hashes[b]! || a - b);
    const order = shuffledOrder(ids, 5);
    expect([...order]).toEqual(expected);
    // Some ids come twice, and their indices stay in order.
    const twice = order.findIndex((v, i) => i > 0 && ids[order[i - 1]!] === ids[v]);
    expect(twice).toBeGreaterThan(0);
    expect(order[twice - 1]!).toBeLessThan(order[twice]!);
  });
});
