/**
 * The task catalogue is a value: the built-in one never changes, a project's adds its own rubric tasks only
 * (another project's are unknown to it), an edit is seen on the next call, and what is derived from a catalogue is
 * kept with that catalogue.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import type { RubricDefinitionInput } from "../rubrics/rubric-definition";
import { createRubricTask, saveRubricVersion } from "../rubrics/rubric-tasks";
import { makeUser } from "../../testkit/testing/fixtures";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { UnknownTaskError } from "./declaration-catalogue";
import { builtInCatalogue, catalogFor, withTasks } from "./task-catalogue";
import { projectAccess } from "../authz/permissions";

const definition = (name: string, criterion = "glow"): RubricDefinitionInput => ({
  name,
  frames: { mode: "key_frames" },
  prompt: "Rate the key frames. {{frames}}\n{{criteria}}",
  criteria: [
    { id: criterion, name: "Glow", definition: "How much it glows.", type: "numeric", min: 0, max: 4, step: 1 },
  ],
});

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

describe("the built-in catalogue", () => {
  it("is one value, with the generated declarations and every installed pipeline", () => {
    expect(builtInCatalogue()).toBe(builtInCatalogue());
    expect(builtInCatalogue().tasks.map((t) => t.id)).toEqual(BUILT_IN_DECLARATIONS.tasks.map((t) => t.id));
    for (const task of builtInCatalogue().tasks) expect(builtInCatalogue().pipelines[task.id]?.task).toEqual(task);
    expect(Object.isFrozen(builtInCatalogue().tasks)).toBe(true);
    expect(() => builtInCatalogue().taskOf("no_such_task")).toThrow(UnknownTaskError);
    expect(builtInCatalogue().findTask("no_such_task")).toBeNull();
    // A pipeline id that names an Object.prototype member is simply unknown.
    expect(builtInCatalogue().pipelines["constructor"]).toBeUndefined();
    expect(builtInCatalogue().findTask("constructor")).toBeNull();
  });

  it("adds a task to a new catalogue and leaves the one it came from as it was", () => {
    const base = builtInCatalogue();
    const toy = { ...base.tasks[0]!, id: "toy_added" };
    const added = withTasks(base, { declarations: { id: "toy", tasks: [toy] }, module: { id: "toy", pipelines: [] } });
    expect(added.findTask("toy_added")).toBe(toy);
    expect(base.findTask("toy_added")).toBeNull();
    expect(added.allTargetIds()).toEqual(base.allTargetIds());
    expect(() => withTasks(added, { declarations: { id: "toy2", tasks: [toy] } })).toThrow(/declared twice/);
  });

  it("keeps what is derived from it with the value", () => {
    const catalogue = builtInCatalogue();
    let builds = 0;
    const first = catalogue.derived("test.schema", () => ({ built: ++builds }));
    expect(catalogue.derived("test.schema", () => ({ built: ++builds }))).toBe(first);
    const other = withTasks(catalogue);
    expect(other.derived("test.schema", () => ({ built: ++builds }))).not.toBe(first);
    expect(builds).toBe(2);
  });
});

describe("catalogFor", () => {
  it("adds a project's own rubric tasks, never another project's", async () => {
    const a = await createProject(prisma, owner, { name: "Catalogue A" });
    const b = await createProject(prisma, owner, { name: "Catalogue B" });
    const inA = await createRubricTask(prisma, await projectAccess(prisma, owner, a.id, "rubrics.manage"), {
      definition: definition("Glow A"),
    });
    const inB = await createRubricTask(prisma, await projectAccess(prisma, owner, b.id, "rubrics.manage"), {
      definition: definition("Glow B"),
    });
    const ofA = await catalogFor(prisma, a.id);
    expect(ofA.findTask(inA.pipeline)?.id).toBe(inA.pipeline);
    expect(ofA.pipelines[inA.pipeline]).toBeDefined();
    expect(ofA.findTask(inB.pipeline)).toBeNull();
    expect(ofA.pipelines[inB.pipeline]).toBeUndefined();
    const ofB = await catalogFor(prisma, b.id);
    expect(ofB.findTask(inB.pipeline)?.id).toBe(inB.pipeline);
    expect(ofB.findTask(inA.pipeline)).toBeNull();
    // The built-in catalogue knows neither.
    expect(builtInCatalogue().findTask(inA.pipeline)).toBeNull();
  });

  it("answers the same value while nothing changed, and sees an edit on the next call", async () => {
    const project = await createProject(prisma, owner, { name: "Catalogue edits" });
    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, project.id, "rubrics.manage"), {
      definition: definition("Before"),
    });
    const before = await catalogFor(prisma, project.id);
    expect(await catalogFor(prisma, project.id)).toBe(before);
    await saveRubricVersion(prisma, await projectAccess(prisma, owner, project.id, "rubrics.manage"), task.id, {
      definition: definition("After", "shine"),
    });
    const after = await catalogFor(prisma, project.id);
    expect(after).not.toBe(before);
    expect(after.taskOf(task.pipeline).targets.map((t) => t.id)).toEqual([expect.stringContaining("shine")]);
  });
});
