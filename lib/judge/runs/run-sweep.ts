/**
 * A sweep: one run request that starts a run per value of one setting (input modes, or frame counts for a task whose
 * frame set is a uniform one of `settings.frames` frames), every other setting the same, saved in one transaction,
 * and answered with the link to the runs side by side (lib/run-comparison/run-comparison.ts).
 */
import type { ProjectAccess } from "../../authz/permissions";
import { ValidationError } from "../../errors";
import { catalogFor } from "../../task-modules/task-catalogue";
import type { CreateRunInput } from "./run-input.validation";
import type { RunSweep } from "./run-sweep.validation";
import { compareUrlOf } from "./run-compare-url";
import { createPlainRuns } from "./runs";

type SweepDeps = Parameters<typeof createPlainRuns>[0];

/** The run requests of a sweep, one per value; a sweep the request or the task cannot take is a 400. */
export async function sweepInputs(
  deps: SweepDeps,
  projectId: string,
  input: CreateRunInput & { sweep: RunSweep },
): Promise<CreateRunInput[]> {
  const { sweep, ...base } = input;
  if (base.ensemble) throw new ValidationError("sweep: a sweep starts plain runs; leave out `ensemble`.");
  if (base.dryRun) throw new ValidationError("sweep: a dry run estimates one run; leave out `sweep` to estimate it.");
  if ("inputModes" in sweep) {
    if (base.inputMode) throw new ValidationError("sweep: name the input modes in the sweep only, not in `inputMode`.");
    return sweep.inputModes.map((inputMode) => ({ ...base, inputMode }));
  }
  const given =
    deps.pipelines && Object.hasOwn(deps.pipelines, base.pipeline) ? deps.pipelines[base.pipeline] : undefined;
  const pipeline = given ?? (await catalogFor(deps.prisma, projectId)).pipelines[base.pipeline];
  if (!pipeline) throw new ValidationError(`Unknown pipeline ${base.pipeline}.`);
  const project = await deps.prisma.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { judgeSettings: true },
  });
  const defaults = (project.judgeSettings as Record<string, unknown> | null)?.[pipeline.id];
  const settings = (base.settings ?? (defaults && typeof defaults === "object" ? defaults : {})) as Record<
    string,
    unknown
  >;
  return sweep.frameCounts.map((frames) => {
    const swept = { ...settings, frames };
    const parsed = pipeline.settingsSchema?.safeParse(swept);
    if (parsed && !parsed.success)
      throw new ValidationError(`sweep.frameCounts: ${frames} frames is not a setting this task takes.`);
    const requirement = pipeline.frames?.(parsed ? parsed.data : swept);
    if (requirement?.mode !== "uniform" || requirement.count !== frames)
      throw new ValidationError(
        `sweep.frameCounts: the task ${pipeline.label ?? pipeline.id} does not take its frame count from its settings (a uniform frame set of \`frames\` frames); sweep its input modes instead.`,
      );
    return { ...base, settings: swept };
  });
}

/** Starts a sweep's runs in one transaction (none when one cannot start) and links to their comparison. */
export async function startSweep(
  deps: SweepDeps,
  access: ProjectAccess<"runs.manage">,
  input: CreateRunInput & { sweep: RunSweep },
) {
  const { projectId } = access;
  const inputs = await sweepInputs(deps, projectId, input);
  const runs = await createPlainRuns(deps, access, inputs);
  const field = "inputModes" in input.sweep ? "inputMode" : "frames";
  return {
    sweep: {
      field,
      values: "inputModes" in input.sweep ? input.sweep.inputModes : input.sweep.frameCounts,
    },
    runs,
    compareUrl: compareUrlOf(
      projectId,
      runs.map((r) => r.id),
    ),
  };
}
