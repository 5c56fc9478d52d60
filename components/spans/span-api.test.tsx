import { afterEach, describe, expect, it, vi } from "vitest";
import { createSpan, type NewSpanBody, type SpanChange, updateSpan } from "./span-api";

/*
 * The span routes are strict (an unknown key is a 400): whatever object the screen hands over, a save sends the
 * span's fields and nothing else.
 */
afterEach(() => vi.unstubAllGlobals());

function sentBody(): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        resolve(JSON.parse(String(init.body)) as Record<string, unknown>);
        return new Response("{}", { status: 200 });
      }),
    );
  });
}

const onScreen = { key: "new:1", id: "s1", kind: "own", author: "you", status: "dirty" };

describe("span saves send only the span's fields", () => {
  it("a change", async () => {
    const body = sentBody();
    const change = { ...onScreen, label: "s1", startFrame: 3, endFrame: 9, boxes: [], note: "" } as SpanChange;
    await updateSpan("s1", change, 4);
    expect(Object.keys(await body).sort()).toEqual([
      "boxes",
      "endFrame",
      "expectedVersion",
      "label",
      "note",
      "startFrame",
    ]);
  });

  it("a new span", async () => {
    const body = sentBody();
    const span = { ...onScreen, task: "t", label: "s1", itemId: "", startFrame: 3, endFrame: 9, boxes: [], note: "" };
    await createSpan("v1", span as NewSpanBody);
    expect(Object.keys(await body).sort()).toEqual([
      "boxes",
      "endFrame",
      "itemId",
      "label",
      "note",
      "startFrame",
      "task",
    ]);
  });
});
