import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import { insertSpans, listVideoSpans, type NewSpan } from "./span-store";
import { GOLD_AUTHOR_ID, type SpanRecord } from "./span-types";
import { visibleSpansFor } from "./span-visibility";

let owner: Actor;
let named: Actor;
let unnamed: Actor;
let video: { id: string; projectId: string };

/** Spans of two reviewers (one with a name, one without) and a gold span, on a video no queue holds blind. */
beforeAll(async () => {
  [owner, named, unnamed] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  await prisma.user.update({ where: { id: named.userId }, data: { name: "Rita Reviewer" } });
  await prisma.user.update({ where: { id: unnamed.userId }, data: { name: "" } });
  const project = await createProject(prisma, owner, { name: "Span authors" });
  await prisma.projectMember.createMany({
    data: [
      { projectId: project.id, userId: named.userId, role: "reviewer" },
      { projectId: project.id, userId: unnamed.userId, role: "reviewer" },
    ],
  });
  video = await createReadyVideo(prisma, { projectId: project.id, relativePath: "a.mp4", createdById: owner.userId });
  const span = (authorKind: NewSpan["authorKind"], authorId: string, startFrame: number): NewSpan => ({
    projectId: project.id,
    videoId: video.id,
    task: "hallucination",
    label: "s1",
    itemId: "",
    startFrame,
    endFrame: startFrame + 2,
    startS: startFrame / 25,
    endS: (startFrame + 3) / 25,
    boxes: [],
    note: "",
    authorKind,
    authorId,
  });
  await insertSpans(
    prisma,
    [span("reviewer", named.userId, 0), span("reviewer", unnamed.userId, 10), span("gold", GOLD_AUTHOR_ID, 20)],
    owner.userId,
  );
});

const names = (spans: SpanRecord[]) => spans.map((s) => [s.authorKind, s.authorName]);

describe("who marked a span", () => {
  it("an owner gets each reviewer's name, else their email; other authors stay as they are", async () => {
    const spans = await listVideoSpans(prisma, video.id);
    const { spans: shown, blind } = await visibleSpansFor(
      prisma,
      { userId: owner.userId, role: "owner" },
      video.id,
      spans,
    );
    expect(blind).toBe(false);
    expect(names(shown)).toEqual([
      ["reviewer", "Rita Reviewer"],
      ["reviewer", unnamed.email],
      ["gold", undefined],
    ]);
  });

  it("a reviewer sees every span but no one's name, their own included", async () => {
    const spans = await listVideoSpans(prisma, video.id);
    const { spans: shown } = await visibleSpansFor(prisma, { userId: named.userId, role: "reviewer" }, video.id, spans);
    expect(shown).toHaveLength(3);
    expect(shown.every((s) => !("authorName" in s))).toBe(true);
    expect(JSON.stringify(shown)).not.toContain("Rita Reviewer");
    expect(JSON.stringify(shown)).not.toContain(unnamed.email);
  });
});
