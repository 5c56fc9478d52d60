// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AlignmentPageData } from "@/lib/alignment/alignment-page";
import type { AlignmentReport } from "@/lib/alignment/align-judge";
import { AlignmentPanel } from "./alignment-panel";

/*
 * The alignment report shows the split itself (each side's videos by name, linking to the video page) and links
 * to the rubric version it saved; the form offers the label sets and the gold values as the labels.
 */
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }) }));
afterEach(cleanup);

const agreement = { n: 2, kappa: 0.5, f1: 0.6 };
const interval = { difference: 0.1, lower: -0.2, upper: 0.4, p: 0.5 };
const report = {
  split: { train: ["v1", "v2"], heldOut: ["v3", "gone"] },
  candidates: [
    {
      id: "c1",
      kind: "baseline",
      note: "the task's latest version",
      definition: {},
      train: agreement,
      trainRunId: "r1",
    },
  ],
  skipped: [],
  bestId: "c1",
  heldOut: {
    baseline: agreement,
    best: agreement,
    difference: { kappa: interval, f1: interval },
    baselineRunId: "r2",
    bestRunId: "r2",
  },
  calls: 12,
  costUsd: 0,
  stopped: null,
} as unknown as AlignmentReport;

function data(savedVersion: number | null): AlignmentPageData {
  return {
    canManage: true,
    alignments: [],
    choices: {
      tasks: [{ id: "t1", name: "Defects", criteria: [{ id: "defects", name: "Defects" }] }],
      builtins: [
        {
          pipeline: "hallucination",
          name: "Hallucination (built-in)",
          targets: [{ id: "inconsistency", name: "Prompt inconsistency" }],
        },
      ],
      labelSets: [{ id: "ls1", name: "Truth" }],
      endpoints: [{ id: "e1", name: "Stub", model: "m" }],
    },
    selected: {
      id: "a1",
      status: "done",
      error: null,
      progress: {},
      report,
      savedVersion,
      savedPromptVersion: null,
      pipeline: null,
      rubricTaskId: "t1",
      taskName: "Defects",
      labels: "the project's gold values (adjudicated)",
      splitVideos: {
        train: [
          { id: "v1", name: "a/one.mp4" },
          { id: "v2", name: "a/two.mp4" },
        ],
        heldOut: [
          { id: "v3", name: "b/three.mp4" },
          { id: "gone", name: null },
        ],
      },
    },
  } as unknown as AlignmentPageData;
}

const renderPanel = (d: AlignmentPageData) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AlignmentPanel projectId="p1" data={d} />
    </QueryClientProvider>,
  );

describe("the alignment report", () => {
  it("lists the train and held-out videos by name, each linking to its video page", () => {
    renderPanel(data(2));
    const train = screen.getByTestId("alignment-split-train");
    expect(
      within(train)
        .getAllByRole("link")
        .map((a) => [a.textContent, a.getAttribute("href")]),
    ).toEqual([
      ["a/one.mp4", "/projects/p1/videos/v1"],
      ["a/two.mp4", "/projects/p1/videos/v2"],
    ]);
    const heldOut = screen.getByTestId("alignment-split-held-out");
    expect(
      within(heldOut)
        .getAllByRole("link")
        .map((a) => a.getAttribute("href")),
    ).toEqual(["/projects/p1/videos/v3"]);
    expect(heldOut.textContent).toContain("(deleted video gone)");
    expect(screen.getByText(/Split: 2 train, 2 held-out videos/)).toBeTruthy();
    expect(screen.getByText(/Labels: the project's gold values/)).toBeTruthy();
  });

  it("links to the rubric version it saved, and says so when none was saved", () => {
    renderPanel(data(2));
    const link = screen.getByTestId("alignment-saved-version");
    expect(link.textContent).toBe("version 2");
    expect(link.getAttribute("href")).toBe("/projects/p1/rubrics#rubric-t1-v2");
    cleanup();
    renderPanel(data(null));
    expect(screen.queryByTestId("alignment-saved-version")).toBeNull();
    expect(screen.getByText(/no new version was saved/)).toBeTruthy();
  });

  it("links a built-in task's chosen judge to its prompt version, with the tuned threshold", () => {
    const builtin = data(null);
    const candidate = {
      id: "c2",
      kind: "threshold",
      note: "c1 with the positive threshold at 7",
      promptVersionId: "pv1",
      body: "",
      threshold: 7,
      train: agreement,
      trainRunId: "r1",
    };
    builtin.selected = {
      ...builtin.selected!,
      rubricTaskId: null,
      pipeline: "hallucination",
      savedPromptVersion: { id: "pv1", templateId: "hallucination/inconsistency" },
      report: {
        ...builtin.selected!.report!,
        candidates: [...builtin.selected!.report!.candidates, candidate],
        bestId: "c2",
      } as unknown as AlignmentReport,
    };
    renderPanel(builtin);
    const link = screen.getByTestId("alignment-saved-version");
    expect(link.getAttribute("href")).toBe(
      "/projects/p1/prompts?pipeline=hallucination&template=hallucination%2Finconsistency#prompt-version-pv1",
    );
    expect(link.parentElement!.textContent).toContain("a prompt version of hallucination/inconsistency, positive at 7");
  });

  it("offers the built-in tasks with their alignable targets beside the rubric tasks, and few-shot only for a target that takes it (a target of no kind takes none)", () => {
    renderPanel(data(null));
    const task = screen.getByLabelText("Task") as HTMLSelectElement;
    expect([...task.options].map((o) => [o.value, o.textContent])).toEqual([
      ["t1", "Defects"],
      ["builtin:hallucination", "Hallucination (built-in)"],
    ]);
    expect(screen.getByLabelText(/Few-shot/)).toBeTruthy();
    fireEvent.change(task, { target: { value: "builtin:hallucination" } });
    const target = screen.getByLabelText("Criterion or target") as HTMLSelectElement;
    expect([...target.options].map((o) => o.value)).toEqual(["inconsistency"]);
    expect(screen.queryByLabelText(/Few-shot/)).toBeNull();
  });

  it("offers few-shot examples for a built-in score target and sends their number, not for a built-in metric", async () => {
    const d = data(null);
    d.choices!.builtins = [
      {
        pipeline: "hallucination",
        name: "Hallucination (built-in)",
        targets: [
          {
            id: "inconsistency",
            name: "Prompt inconsistency",
            kind: "score",
            scope: "video",
            steps: [{ id: "inconsistency", name: "Prompt inconsistency" }],
          },
          {
            id: "verdict",
            name: 'Hallucination (metric "verdict")',
            kind: "metric",
            scope: "video",
            steps: [{ id: "inconsistency", name: "Prompt inconsistency" }],
          },
        ],
      },
    ];
    const posted: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        posted.push(JSON.parse(init.body as string));
        return new Response(JSON.stringify({ id: "a9" }), {
          status: 201,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    renderPanel(d);
    fireEvent.change(screen.getByLabelText("Task"), { target: { value: "builtin:hallucination" } });
    fireEvent.change(screen.getByLabelText(/Few-shot/), { target: { value: "6" } });
    fireEvent.submit(screen.getByRole("form", { name: "Start an alignment" }));
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ pipeline: "hallucination", targetId: "inconsistency", fewShot: 6 });
    fireEvent.change(screen.getByLabelText("Criterion or target"), { target: { value: "verdict" } });
    expect(screen.queryByLabelText(/Few-shot/)).toBeNull();
    vi.unstubAllGlobals();
  });

  it("asks which step's prompt to rewrite for a built-in metric (a verdict), and sends it", async () => {
    const d = data(null);
    d.choices!.builtins = [
      {
        pipeline: "hallucination",
        name: "Hallucination (built-in)",
        targets: [
          {
            id: "inconsistency",
            name: "Prompt inconsistency",
            kind: "score",
            scope: "video",
            steps: [{ id: "inconsistency", name: "Prompt inconsistency" }],
          },
          {
            id: "verdict",
            name: 'Hallucination (metric "verdict")',
            kind: "metric",
            scope: "video",
            steps: [
              { id: "inconsistency", name: "Prompt inconsistency" },
              { id: "static_hallucination", name: "Static hallucination" },
            ],
          },
        ],
      },
    ];
    const posted: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        posted.push(JSON.parse(init.body as string));
        return new Response(JSON.stringify({ id: "a9" }), {
          status: 201,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    renderPanel(d);
    fireEvent.change(screen.getByLabelText("Task"), { target: { value: "builtin:hallucination" } });
    expect(screen.queryByLabelText("Rewrite the prompt of step")).toBeNull();
    fireEvent.change(screen.getByLabelText("Criterion or target"), { target: { value: "verdict" } });
    const step = screen.getByLabelText("Rewrite the prompt of step") as HTMLSelectElement;
    expect([...step.options].map((o) => o.value)).toEqual(["inconsistency", "static_hallucination"]);
    fireEvent.change(step, { target: { value: "static_hallucination" } });
    fireEvent.submit(screen.getByRole("form", { name: "Start an alignment" }));
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      pipeline: "hallucination",
      targetId: "verdict",
      rewriteStepId: "static_hallucination",
    });
    vi.unstubAllGlobals();
  });

  it("shows a built-in judge's tuned run settings, with an owner's button to make them the defaults until they are", () => {
    const builtin = data(null);
    const settings = {
      words: "aggregation mean-max, verdict.on max_category, verdict.threshold 7",
      changed: true,
      applied: false,
      canApply: true,
    };
    builtin.selected = { ...builtin.selected!, rubricTaskId: null, pipeline: "hallucination", bestSettings: settings };
    renderPanel(builtin);
    const block = screen.getByTestId("alignment-best-settings");
    expect(block.textContent).toContain("verdict.threshold 7");
    expect(within(block).getByRole("button", { name: "Use as the defaults for new runs" })).toBeTruthy();
    expect(screen.getByText(/renders the shipped templates with the settings above/)).toBeTruthy();
    cleanup();
    renderPanel({ ...builtin, selected: { ...builtin.selected!, bestSettings: { ...settings, applied: true } } });
    expect(screen.getByTestId("alignment-best-settings").textContent).toContain(
      "They are the project's defaults for new runs.",
    );
    cleanup();
    renderPanel({ ...builtin, selected: { ...builtin.selected!, bestSettings: { ...settings, canApply: false } } });
    expect(within(screen.getByTestId("alignment-best-settings")).queryByRole("button")).toBeNull();
  });

  it("offers each label set and the gold values as the labels", () => {
    renderPanel(data(null));
    const select = screen.getByLabelText("Labels") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["Label set: Truth", "Gold values (adjudicated)"]);
  });
});
