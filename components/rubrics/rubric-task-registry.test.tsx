// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VideoWorkspace } from "@/components/videos/video-workspace";
import { rubricTaskDeclaration } from "@/lib/rubrics/rubric-declaration";
import { rubricDefinitionSchema } from "@/lib/rubrics/rubric-definition";
import { findTask, TASKS } from "@/lib/tasks/registry";
import type { TaskDeclarations } from "@/lib/tasks/task-module";
import { RubricTaskRegistry } from "./rubric-task-registry";

/*
 * The browser's task registry holds only the built-in tasks; the project layout hands it the project's rubric
 * tasks through RubricTaskRegistry. A client component under it (here the video page's workspace) then reads a
 * rubric run's task, its criteria's names and definitions, as it reads a built-in one's.
 */
vi.mock("next/navigation", () => ({
  usePathname: () => "/projects/p1/videos/v1",
  useRouter: () => ({ push: vi.fn() }),
}));

const KEY = 9301;
const definition = (name: string) =>
  rubricDefinitionSchema.parse({
    name: "Clip quality",
    frames: { mode: "uniform", count: 4 },
    criteria: [
      {
        id: "quality",
        name,
        definition: "How good the clip looks, 1 (bad) to 5 (great).",
        type: "numeric",
        min: 1,
        max: 5,
        step: 1,
      },
      { id: "legible", name: "Legible text", definition: "Is every on-screen text legible?", type: "boolean" },
    ],
    prompt: "Judge the clip for {{prompt}}.\n{{criteria}}\n{{frames}}",
  });
const folderOf = (name: string): TaskDeclarations => {
  const task = rubricTaskDeclaration(KEY, definition(name));
  return { id: task.id, projectId: "p1", tasks: [task], runForm: {} };
};

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

function answerWithRubricRun() {
  const run = {
    id: "r1",
    pipeline: `rubric_${KEY}`,
    status: "completed",
    simulated: true,
    createdAt: "2026-11-01T10:00:00.000Z",
    settings: {},
    endpointSnapshot: { name: "Stub", model: "stub" },
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      if (input.startsWith("/api/v1/videos/v1/scores"))
        return json({
          videoId: "v1",
          run,
          frameSetId: "fs1",
          status: "done",
          summary: { values: { quality: 4, legible: 1 }, complete: true },
          steps: [],
          blind: false,
        });
      if (input.startsWith("/api/v1/videos/v1/reviews")) return json({ judgments: [] });
      return json({});
    }),
  );
}

function Workspace() {
  return (
    <VideoWorkspace
      videoId="v1"
      videoUrl="/media/v1.mp4"
      fps={null}
      frameSets={[{ id: "fs1", frames: [] }]}
      runs={[
        {
          id: "r1",
          label: "Rubric · stub @ Stub · 1 Nov 2026 10:00:00",
          createdAt: "2026-11-01T10:00:00.000Z",
          runStatus: "completed",
          simulated: true,
          endpoint: { name: "Stub", model: "stub" },
        },
      ]}
      runId={null}
      currentUserId="u1"
      canReview={false}
      aside={null}
    />
  );
}

function renderPage(folders: TaskDeclarations[], projectId = "p1") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <RubricTaskRegistry projectId={projectId} folders={folders}>
        <Workspace />
      </RubricTaskRegistry>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the browser's registry of a project's rubric tasks", () => {
  it("lets the video page read a rubric run's criteria by name, registered before the page renders", async () => {
    answerWithRubricRun();
    // What the page sees on its first render: the task is there already (not after an effect).
    let seenOnFirstRender: string | null | undefined;
    function Probe() {
      if (seenOnFirstRender === undefined) seenOnFirstRender = findTask(`rubric_${KEY}`)?.label ?? null;
      return null;
    }
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <RubricTaskRegistry projectId="p1" folders={[folderOf("Overall quality")]}>
          <Probe />
          <Workspace />
        </RubricTaskRegistry>
      </QueryClientProvider>,
    );
    expect(seenOnFirstRender).toBe("Clip quality");
    const legend = await screen.findByTestId("target-legend");
    const entries = Array.from(legend.querySelectorAll("[data-testid=legend-entry]"), (e) =>
      e.getAttribute("data-code"),
    );
    expect(entries).toEqual([`r${KEY}_quality`, `r${KEY}_legible`]);
    expect(legend.textContent).toContain("Overall quality");
    expect(legend.textContent).toContain("Is every on-screen text legible?");
  });

  it("is idempotent: the same folders again change nothing; an edited one replaces its task; a deleted one leaves", () => {
    answerWithRubricRun();
    const first = renderPage([folderOf("Overall quality")]);
    const registered = findTask(`rubric_${KEY}`);
    expect(TASKS.filter((t) => t.id === `rubric_${KEY}`)).toHaveLength(1);
    const count = TASKS.length;
    first.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <RubricTaskRegistry projectId="p1" folders={[folderOf("Overall quality")]}>
          <p>again</p>
        </RubricTaskRegistry>
      </QueryClientProvider>,
    );
    expect(TASKS.length).toBe(count);
    expect(findTask(`rubric_${KEY}`)).toBe(registered);

    first.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <RubricTaskRegistry projectId="p1" folders={[folderOf("Looks")]}>
          <p>edited</p>
        </RubricTaskRegistry>
      </QueryClientProvider>,
    );
    expect(TASKS.length).toBe(count);
    expect(TASKS.filter((t) => t.id === `rubric_${KEY}`)).toHaveLength(1);
    expect(findTask(`rubric_${KEY}`)!.targets[0]!.label).toBe("Looks");

    // Another project's page leaves p1's tasks alone; p1's page without the task takes it out.
    first.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <RubricTaskRegistry projectId="p2" folders={[]}>
          <p>other project</p>
        </RubricTaskRegistry>
      </QueryClientProvider>,
    );
    expect(findTask(`rubric_${KEY}`)).not.toBeNull();
    first.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <RubricTaskRegistry projectId="p1" folders={[]}>
          <p>deleted</p>
        </RubricTaskRegistry>
      </QueryClientProvider>,
    );
    expect(findTask(`rubric_${KEY}`)).toBeNull();
    expect(TASKS.length).toBe(count - 1);
  });
});
