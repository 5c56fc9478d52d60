import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { extract } from "tar-stream";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { projectAccess } from "@/lib/authz/permissions";
import { addMember } from "@/lib/projects/projects";
import { insertCandidateSet } from "@/testkit/tasks/construction/candidate-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { saveCandidateCuration } from "./curation-queues";
import { exportBenchmark } from "./export-benchmark";
import { exportLmmsEval, type LmmsEvalDoc, lmmsEvalFiles, LMMS_EVAL_UTILS } from "./export-lmms-eval";

/*
 * Issue 28, item 3: a curated Q&A set in lmms-eval's task format. The tar is read back; the task yaml parsed
 * with the repo's yaml library (its `!function` tags kept), the docs compared with the benchmark export, and
 * utils.py run with Debian's python3 on the docs.
 */
let owner: Actor;
let curator: Actor & { email: string };
let stranger: Actor;
let setId: string;
let projectId: string;

const SPECS = [
  {
    externalId: "c1",
    video: 0,
    question: "What happens after the ball is placed at the top?",
    answer: "It rolls down the ramp.",
  },
  { externalId: "c2", video: 1, question: "Where is the ball placed first?", answer: "At the top of the ramp." },
];

beforeAll(async () => {
  [owner, curator, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  let videoIds: string[];
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Ramp QA",
  }));
  const inserted = await insertCandidateSet(prisma, owner, projectId, videoIds, SPECS, "Ramp QA");
  setId = inserted.setId;
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: curator.email,
    role: "reviewer",
  });
  await saveCandidateCuration(
    prisma,
    await projectAccess(prisma, curator, projectId, "scores.review"),
    inserted.itemIds.c1!,
    { decision: "accept" },
  );
  await saveCandidateCuration(
    prisma,
    await projectAccess(prisma, curator, projectId, "scores.review"),
    inserted.itemIds.c2!,
    { decision: "accept" },
  );
});

async function readTar(stream: ReadableStream<Uint8Array>): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on("entry", (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on("data", (c) => chunks.push(c as Buffer));
      body.on("end", () => {
        entries.set(header.name, Buffer.concat(chunks).toString("utf8"));
        next();
      });
    });
    reader.on("finish", resolve);
    reader.on("error", reject);
  });
  Readable.fromWeb(stream as Parameters<typeof Readable.fromWeb>[0]).pipe(reader);
  await done;
  return entries;
}

const functionTag = { tag: "!function", resolve: (name: string) => ({ function: name }) };

describe("the lmms-eval export", () => {
  it("writes a task yaml, the accepted questions as docs and utils.py hooks that score them", async () => {
    const { stream, filename, task } = await exportLmmsEval(
      prisma,
      await projectAccess(prisma, curator, projectId, "export.read"),
      setId,
      "open",
    );
    expect(task).toBe("framejury_ramp_qa_open");
    expect(filename).toBe(`${task}.tar`);
    const entries = await readTar(stream);
    expect([...entries.keys()]).toEqual([`${task}/${task}.yaml`, `${task}/${task}.jsonl`, `${task}/utils.py`]);

    const config = parseYaml(entries.get(`${task}/${task}.yaml`)!, { customTags: [functionTag] }) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      dataset_path: "json",
      dataset_kwargs: { data_files: { test: `lmms_eval/tasks/${task}/${task}.jsonl` } },
      task,
      test_split: "test",
      output_type: "generate_until",
      doc_to_visual: { function: "utils.doc_to_visual" },
      doc_to_text: { function: "utils.doc_to_text" },
      doc_to_target: "answer",
      process_results: { function: "utils.process_results" },
      metric_list: [{ metric: "accuracy", aggregation: "mean", higher_is_better: true }],
    });

    const expected = await exportBenchmark(
      prisma,
      await projectAccess(prisma, curator, projectId, "export.read"),
      setId,
      "open",
    );
    const docs = entries
      .get(`${task}/${task}.jsonl`)!
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as LmmsEvalDoc);
    expect(docs.map((d) => [d.id, d.video, d.question, d.answer, d.format, d.options])).toEqual(
      expected.lines.map((l) => [l.id, l.video, l.question, l.answer, "open", null]),
    );
    expect(docs.map((d) => d.id)).toEqual(["c1", "c2"]);
    // The provenance (`extra`) names curators: it stays out of the docs.
    expect(entries.get(`${task}/${task}.jsonl`)).not.toContain(curator.email);
    expect(entries.get(`${task}/utils.py`)).toBe(LMMS_EVAL_UTILS);
  });

  it("utils.py, run by python3, builds the prompt and scores letters and open answers", () => {
    const mc = {
      id: "q:mc",
      video: "Mechanics/a.mp4",
      question: "Which step is first?",
      format: "mc" as const,
      options: { A: "Pour", B: "Stir", C: "Boil", D: "Cut", E: "Serve" },
      answer: "C",
      category: null,
      granularity: null,
      extra: {},
    };
    const open = {
      ...mc,
      id: "q:open",
      format: "open" as const,
      options: undefined,
      answer: "It rolls down the ramp.",
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lmms-eval-"));
    for (const f of lmmsEvalFiles([mc, open], "t")) {
      fs.mkdirSync(path.join(dir, path.dirname(f.name)), { recursive: true });
      fs.writeFileSync(path.join(dir, f.name), f.text);
    }
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(path.join(dir, "t"))})
import utils
docs = [json.loads(l) for l in open(${JSON.stringify(path.join(dir, "t", "t.jsonl"))})]
mc, op = docs
print(json.dumps({
  "visual": utils.doc_to_visual(mc),
  "mc_text": utils.doc_to_text(mc, {"pre_prompt": "", "mc_post_prompt": " Letter?"}),
  "mc_right": utils.process_results(mc, ["The answer is C."]),
  "mc_wrong": utils.process_results(mc, ["B"]),
  "open_right": utils.process_results(op, ["it rolls down the ramp"]),
  "open_wrong": utils.process_results(op, ["It stays still."]),
}))`;
    const out = JSON.parse(
      execFileSync("python3", ["-c", script], { env: { ...process.env, FRAMEJURY_VIDEO_ROOT: "/videos" } }).toString(),
    );
    expect(out).toEqual({
      visual: ["/videos/Mechanics/a.mp4"],
      mc_text: "Which step is first?\nA. Pour\nB. Stir\nC. Boil\nD. Cut\nE. Serve Letter?",
      mc_right: { accuracy: 1 },
      mc_wrong: { accuracy: 0 },
      open_right: { accuracy: 1 },
      open_wrong: { accuracy: 0 },
    });
  });

  it("hides the set from strangers", async () => {
    await expect(projectAccess(prisma, stranger, projectId, "export.read")).rejects.toBeInstanceOf(NotFoundError);
  });
});
