import { describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import {
  admitCallStart,
  othersWaiting,
  pauseEndpoint,
  releaseSlot,
  renewSlots,
  takeSlot,
  takeSlots,
} from "./endpoint-slots";
import { createEndpoint } from "./endpoints";
import { projectAccess } from "../../authz/permissions";

/** A fresh endpoint row (the slot tables reference it); its limits are passed to each call. */
async function endpointId(): Promise<string> {
  const owner = await makeUser();
  const project = await createProject(prisma, owner, { name: "Slots" });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, project.id, "endpoints.manage"), {
    name: "slots",
    baseUrl: "http://127.0.0.1:9/v1",
    model: "m",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 3,
    requestsPerMinute: null,
    timeoutSeconds: 30,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  return endpoint.id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const concurrency = (id: string, holder: string, holdMs = 10_000, limit = 3) =>
  takeSlot(prisma, { endpointId: id, kind: "concurrency", limit, holder, holdMs });

describe("concurrency slots in PostgreSQL", () => {
  it("gives at most `limit` slots, and a released slot can be taken again", async () => {
    const id = await endpointId();
    const taken = [await concurrency(id, "a"), await concurrency(id, "b"), await concurrency(id, "c")];
    expect(taken.map((t) => t.slot).sort()).toEqual([0, 1, 2]);
    expect((await concurrency(id, "d")).slot).toBeNull();

    const bSlot = taken[1]!.slot!;
    await releaseSlot(prisma, { endpointId: id, kind: "concurrency", slot: bSlot, holder: "someone-else" });
    expect((await concurrency(id, "d")).slot).toBeNull(); // only its holder frees a slot
    await releaseSlot(prisma, { endpointId: id, kind: "concurrency", slot: bSlot, holder: "b" });
    expect((await concurrency(id, "d")).slot).toBe(bSlot);
  });

  it("finds the one free slot among many taken ones", async () => {
    const id = await endpointId();
    const limit = 200;
    await prisma.endpointSlotLease.createMany({
      data: Array.from({ length: limit }, (_, slot) => ({
        endpointId: id,
        kind: "rate",
        slot,
        holder: "filler",
        expiresAt: new Date(Date.now() + 60_000),
      })).filter((r) => r.slot !== 137),
    });
    const taken = await takeSlot(prisma, { endpointId: id, kind: "rate", limit, holder: "last", holdMs: 60_000 });
    expect(taken.slot).toBe(137);
    const full = await takeSlot(prisma, { endpointId: id, kind: "rate", limit, holder: "late", holdMs: 10_000 });
    expect(full.slot).toBeNull();
    // Full rate slots say when the first of them frees itself.
    expect((full as { retryInMs: number }).retryInMs).toBeGreaterThan(50_000);
    expect((full as { retryInMs: number }).retryInMs).toBeLessThanOrEqual(60_000);
  });

  it("never gives more than `limit` to many simultaneous takers", async () => {
    const id = await endpointId();
    const tries = await Promise.all(Array.from({ length: 24 }, (_, i) => concurrency(id, `h${i}`)));
    const granted = tries.filter((t) => t.slot !== null);
    expect(granted.length).toBeLessThanOrEqual(3);
    // The losers of a collision may come back at once; some of them get the rest.
    for (let i = 0; i < 20 && granted.length < 3; i++) {
      const retry = await concurrency(id, `r${i}`);
      if (retry.slot !== null) granted.push(retry);
    }
    expect(granted.map((t) => t.slot).sort()).toEqual([0, 1, 2]);
    expect(
      await prisma.endpointSlotLease.count({
        where: { endpointId: id, kind: "concurrency", expiresAt: { gt: new Date() } },
      }),
    ).toBe(3);
  });

  it("frees a slot whose holder stops renewing once its lease ends, and keeps a renewed one", async () => {
    const id = await endpointId();
    const silent = await concurrency(id, "dead", 600, 2);
    const alive = await concurrency(id, "alive", 600, 2);
    expect([silent.slot, alive.slot].sort()).toEqual([0, 1]);
    expect((await concurrency(id, "newcomer", 600, 2)).slot).toBeNull();

    // "alive" (and "newcomer" once it has a slot) renews every 200 ms, "dead" never does.
    const started = Date.now();
    let newcomer: Awaited<ReturnType<typeof concurrency>> = { slot: null, retryInMs: null, pausedForMs: null };
    while (Date.now() - started < 1500) {
      expect(await renewSlots(prisma, newcomer.slot === null ? ["alive"] : ["alive", "newcomer"], 600)).toEqual(
        new Set(),
      );
      if (newcomer.slot === null) newcomer = await concurrency(id, "newcomer", 600, 2);
      await sleep(200);
    }
    expect(newcomer.slot).toBe(silent.slot);
    expect((await concurrency(id, "another", 600, 2)).slot).toBeNull(); // "alive" still holds its slot
    const rows = await prisma.endpointSlotLease.findMany({
      where: { endpointId: id, kind: "concurrency" },
      orderBy: { slot: "asc" },
    });
    expect(rows.map((r) => r.holder).sort()).toEqual(["alive", "newcomer"]);
  });

  it("tells a holder that renews too late that its slot has gone to someone else", async () => {
    const id = await endpointId();
    const late = await concurrency(id, "late", 300, 1);
    expect(late.slot).toBe(0);
    await sleep(400);
    expect((await concurrency(id, "next", 10_000, 1)).slot).toBe(0);
    expect(await renewSlots(prisma, ["late", "next"], 10_000)).toEqual(new Set(["late"]));
    expect(
      (await prisma.endpointSlotLease.findFirstOrThrow({ where: { endpointId: id, kind: "concurrency" } })).holder,
    ).toBe("next");
  });

  it("gives nothing after the limit is lowered until the slots above the new limit are free", async () => {
    const id = await endpointId();
    for (const holder of ["a", "b", "c"]) expect((await concurrency(id, holder, 10_000, 3)).slot).not.toBeNull();
    const high = await prisma.endpointSlotLease.findFirstOrThrow({
      where: { endpointId: id, kind: "concurrency", slot: 2 },
    });
    const low = await prisma.endpointSlotLease.findFirstOrThrow({
      where: { endpointId: id, kind: "concurrency", slot: 0 },
    });
    await releaseSlot(prisma, { endpointId: id, kind: "concurrency", slot: 0, holder: low.holder });
    // Limit now 2: slot 0 is free, but slots 1 and 2 are held, already 2 calls.
    expect((await concurrency(id, "d", 10_000, 2)).slot).toBeNull();
    await releaseSlot(prisma, { endpointId: id, kind: "concurrency", slot: 2, holder: high.holder });
    expect((await concurrency(id, "d", 10_000, 2)).slot).toBe(0);
  });
});

describe("concurrency slots taken in batches", () => {
  const waiter = (process: string) => ({ slot: Math.floor(Math.random() * 2 ** 31), process });
  const batch = (id: string, wanted: number, who: { slot: number; process: string }, limit = 5, holdMs = 10_000) =>
    takeSlots(prisma, { endpointId: id, limit, wanted, holderPrefix: `${who.process}:batch`, holdMs, waiter: who });

  it("takes as many free slots as wanted in one statement, never more than the limit, each with its own holder", async () => {
    const id = await endpointId();
    const a = waiter("host:1");
    const first = await batch(id, 3, a);
    expect(first).toHaveLength(3);
    expect(new Set(first.map((t) => t.holder)).size).toBe(3);
    for (const t of first) expect(t.holder).toBe(`host:1:batch:${t.slot}`);
    const second = await batch(id, 4, a);
    expect(second).toHaveLength(2);
    expect([...first, ...second].map((t) => t.slot).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(await batch(id, 1, a)).toEqual([]);
    // Each slot is released by its own holder, and is then free for the next batch.
    await releaseSlot(prisma, {
      endpointId: id,
      kind: "concurrency",
      slot: second[0]!.slot,
      holder: second[0]!.holder,
    });
    expect((await batch(id, 2, a)).map((t) => t.slot)).toEqual([second[0]!.slot]);
  });

  it("never gives more than the limit to simultaneous batches of several processes, and they never deadlock", async () => {
    const id = await endpointId();
    const takers = Array.from({ length: 6 }, (_, i) => waiter(`host:${i}`));
    // Batches inserting their slots in random order waited for each other in a circle now and then
    // (PostgreSQL's deadlock error); several rounds make that likely.
    for (let round = 0; round < 10; round++) {
      const tries = await Promise.all(takers.map((who) => batch(id, 4, who, 7)));
      const slots = tries.flat().map((t) => t.slot);
      expect(slots.length).toBeLessThanOrEqual(7);
      expect(new Set(slots).size).toBe(slots.length);
      expect(
        await prisma.endpointSlotLease.count({
          where: { endpointId: id, kind: "concurrency", expiresAt: { gt: new Date() } },
        }),
      ).toBe(slots.length);
      await prisma.endpointSlotLease.deleteMany({ where: { endpointId: id, kind: "concurrency" } });
    }
  });

  it("records a process that got fewer than it wanted as waiting, for the others to see but not itself, for a second", async () => {
    const id = await endpointId();
    const [a, b] = [waiter("host:a"), waiter("host:b")];
    expect(await batch(id, 2, a, 2)).toHaveLength(2);
    // a got all it wanted: nobody waits.
    expect(await othersWaiting(prisma, id, "host:b")).toBe(false);
    expect(await batch(id, 1, b, 2)).toEqual([]);
    expect(await othersWaiting(prisma, id, "host:a")).toBe(true);
    expect(await othersWaiting(prisma, id, "host:b")).toBe(false);
    // Waiting rows are no slots: the concurrency slots held are still a's two.
    expect(await prisma.endpointSlotLease.count({ where: { endpointId: id, kind: "concurrency" } })).toBe(2);
    await sleep(1100);
    expect(await othersWaiting(prisma, id, "host:a")).toBe(false);
  });

  it("forgets the waiting rows of processes gone for a minute when it records one", async () => {
    const id = await endpointId();
    const a = waiter("host:a");
    await prisma.endpointSlotLease.createMany({
      data: [
        { endpointId: id, kind: "waiting", slot: 11, holder: "host:gone", expiresAt: new Date(Date.now() - 120_000) },
        { endpointId: id, kind: "waiting", slot: 12, holder: "host:recent", expiresAt: new Date(Date.now() - 5_000) },
      ],
    });
    expect(await batch(id, 1, a, 1)).toHaveLength(1);
    expect(await batch(id, 1, a, 1)).toEqual([]);
    const rows = await prisma.endpointSlotLease.findMany({
      where: { endpointId: id, kind: "waiting" },
      orderBy: { holder: "asc" },
    });
    expect(rows.map((r) => r.holder)).toEqual(["host:a", "host:recent"]);
  });

  it("gives nothing in a batch after the limit is lowered until the slots above the new limit are free", async () => {
    const id = await endpointId();
    const a = waiter("host:a");
    const held = await batch(id, 3, a, 3);
    expect(held).toHaveLength(3);
    const top = held.find((t) => t.slot === 2)!;
    await releaseSlot(prisma, {
      endpointId: id,
      kind: "concurrency",
      slot: 0,
      holder: held.find((t) => t.slot === 0)!.holder,
    });
    expect(await batch(id, 1, a, 2)).toEqual([]);
    await releaseSlot(prisma, { endpointId: id, kind: "concurrency", slot: 2, holder: top.holder });
    expect((await batch(id, 2, a, 2)).map((t) => t.slot)).toEqual([0]);
  });
});

describe("rate slots and pauses in PostgreSQL", () => {
  const start = (id: string, requestsPerWindow: number | null, windowMs = 1000) =>
    admitCallStart(prisma, { endpointId: id, requestsPerWindow, windowMs, holder: "test" });

  it("admits at most N starts per window, says when the next is possible, and admits again after the window", async () => {
    const id = await endpointId();
    const first = Date.now();
    for (let i = 0; i < 3; i++) expect(await start(id, 3)).toEqual({ admitted: true });
    const refused = await start(id, 3);
    expect(refused.admitted).toBe(false);
    const retryInMs = (refused as { retryInMs: number }).retryInMs;
    expect(retryInMs).toBeGreaterThan(0);
    expect(retryInMs).toBeLessThanOrEqual(1000);
    await sleep(first + 1000 - Date.now() + 100);
    expect(await start(id, 3)).toEqual({ admitted: true });
  });

  it("refuses every start while the endpoint is paused, and a shorter pause never cuts a longer one short", async () => {
    const id = await endpointId();
    expect(await start(id, null)).toEqual({ admitted: true });
    await pauseEndpoint(prisma, id, 800);
    await pauseEndpoint(prisma, id, 100);
    for (const limit of [null, 5]) {
      const refused = await start(id, limit);
      expect(refused.admitted).toBe(false);
      expect((refused as { retryInMs: number }).retryInMs).toBeGreaterThan(500);
      expect((refused as { retryInMs: number }).retryInMs).toBeLessThanOrEqual(800);
    }
    // A refused start took no rate slot.
    expect(await prisma.endpointSlotLease.count({ where: { endpointId: id, kind: "rate" } })).toBe(0);
    await sleep(900);
    expect(await start(id, null)).toEqual({ admitted: true });
    expect(await start(id, 5)).toEqual({ admitted: true });
  });
});
