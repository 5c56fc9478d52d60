// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VideoWorkspace } from "@/components/videos/video-workspace";
import { rubricTaskDeclaration } from "@/lib/rubrics/rubric-declaration";
import { rubricDefinitionSchema } from "@/lib/rubrics/rubric-definition";
import type { TaskFolderDeclarations } from "@/lib/task-modules/task-module";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import { TaskCatalogueProvider, useTaskCatalogue } from "./task-catalogue-context";

/*
 * The browser's task catalogue is the built-in one; the project layout hands the project's rubric tasks to
 * TaskCatalogueProvider. A client component under it (here the video page's workspace) then reads a rubric run's
 * task, its criteria's names and definitions, as it reads a built-in one's.
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
const folderOf = (name: string): TaskFolderDeclarations => {
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

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The catalogue each render under the provider saw, last first. */
let seen: DeclarationCatalogue[] = [];
function Probe() {
  seen.unshift(useTaskCatalogue());
  return null;
}

function page(folders: TaskFolderDeclarations[], text: string) {
  return (
    <QueryClientProvider client={new QueryClient()}>
      <TaskCatalogueProvider folders={folders}>
        <Probe />
        <p>{text}</p>
      </TaskCatalogueProvider>
    </QueryClientProvider>
  );
}

describe("the browser's catalogue of a project's rubric tasks", () => {
  it("lets the video page read a rubric run's criteria by name, in the catalogue from the page's first render", async () => {
    answerWithRubricRun();
    // What the page sees on its first render: the task is there already (not after an effect).
    const seenLabel = vi.fn();
    function FirstRender() {
      seenLabel(useTaskCatalogue().findTask(`rubric_${KEY}`)?.label ?? null);
      return null;
    }
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <TaskCatalogueProvider folders={[folderOf("Overall quality")]}>
          <FirstRender />
          <Workspace />
        </TaskCatalogueProvider>
      </QueryClientProvider>,
    );
    expect(seenLabel.mock.calls[0]![0]).toBe("Clip quality");
    const legend = await screen.findByTestId("target-legend");
    const entries = Array.from(legend.querySelectorAll("[data-testid=legend-entry]"), (e) =>
      e.getAttribute("data-code"),
    );
    expect(entries).toEqual([`r${KEY}_quality`, `r${KEY}_legible`]);
    expect(legend.textContent).toContain("Overall quality");
    expect(legend.textContent).toContain("Is every on-screen text legible?");
    // The built-in catalogue is left as it was.
    expect(BUILT_IN_DECLARATIONS.findTask(`rubric_${KEY}`)).toBeNull();
  });

  it("keeps its value for the same folders; an edited one gives a new catalogue; without it the task is unknown", () => {
    answerWithRubricRun();
    seen = [];
    const first = render(page([folderOf("Overall quality")], "first"));
    const registered = seen[0]!.findTask(`rubric_${KEY}`);
    expect(seen[0]!.tasks.filter((t) => t.id === `rubric_${KEY}`)).toHaveLength(1);
    const count = seen[0]!.tasks.length;
    const before = seen[0];
    first.rerender(page([folderOf("Overall quality")], "again"));
    expect(seen[0]!.tasks.length).toBe(count);
    expect(seen[0]).toBe(before);
    expect(seen[0]!.findTask(`rubric_${KEY}`)).toBe(registered);

    first.rerender(page([folderOf("Looks")], "edited"));
    expect(seen[0]!.tasks.length).toBe(count);
    expect(seen[0]!.tasks.filter((t) => t.id === `rubric_${KEY}`)).toHaveLength(1);
    expect(seen[0]!.findTask(`rubric_${KEY}`)!.targets[0]!.label).toBe("Looks");

    // Another project's page (its own folders, none here) and the project's page without the task: it is unknown.
    first.rerender(page([], "other project"));
    expect(seen[0]!.findTask(`rubric_${KEY}`)).toBeNull();
    expect(seen[0]!.tasks.length).toBe(count - 1);
    expect(seen[0]).toBe(BUILT_IN_DECLARATIONS);
  });
});
