import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { LocalStorage } from "../storage/local-storage";
import { makeUser } from "../../testkit/testing/fixtures";
import { sweepStaleUploads } from "./sweep-stale-uploads";

describe("sweepStaleUploads", () => {
  it("removes old leftovers of interrupted uploads and keeps recent files and those of open uploads", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-sweep-"));
    const storage = new LocalStorage(root);
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Sweep" });
    const session = (status: "open" | "cancelled") =>
      prisma.uploadSession.create({
        data: {
          projectId: project.id,
          createdById: owner.userId,
          relativePath: "a-0.mp4",
          sizeBytes: 10n,
          sha256: "0".repeat(64),
          status,
        },
      });
    const open = await session("open");
    const cancelled = await session("cancelled");
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    const file = (relative: string, mtime?: Date) => {
      const full = path.join(root, relative);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, "bytes");
      if (mtime) fs.utimesSync(full, mtime, mtime);
      return relative;
    };
    const stale = [
      file("objects/incoming/0b7e7a52-7f3a-4c1e-9a59-1f0c2c1d2e3f", twoDaysAgo),
      file(
        "objects/incoming/0b7e7a52-7f3a-4c1e-9a59-1f0c2c1d2e40.9f1c2b3a-1111-2222-3333-444455556666.part",
        twoDaysAgo,
      ),
      file(`staging/${cancelled.id}`, twoDaysAgo),
      file("staging/cmgoneforeverx0000000000", twoDaysAgo),
    ];
    const kept = [
      file("objects/incoming/5a0c1d2e-0000-4000-8000-000000000000"), // recent: a request may still be writing it
      file(`staging/${open.id}`, twoDaysAgo), // an open upload may still resume
      file(`objects/incoming/${open.id}`, twoDaysAgo), // an open upload being completed
      file("objects/videos/kept.mp4", twoDaysAgo),
    ];
    const removed = await sweepStaleUploads({ prisma, storage });
    expect(removed.sort()).toEqual(stale.map((f) => f.replace(/^objects\//, "")).sort());
    for (const f of stale) expect(fs.existsSync(path.join(root, f))).toBe(false);
    for (const f of kept) expect(fs.existsSync(path.join(root, f))).toBe(true);
  });
});
