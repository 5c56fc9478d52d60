/** A pipeline's work once its run is done (PipelineDefinition.afterRun), done by the worker whose close ended the run. */
import type { JudgeEventSubscriber } from "../engine/judge-events";

/** Hears "run finished" of a pipeline with after-run work; a failure is logged and the run stays done. */
export const afterRunSubscriber: JudgeEventSubscriber = {
  name: "after-run work",
  wants: (kind, pipeline) => kind === "run finished" && pipeline.afterRun !== undefined,
  async heard(deps, event) {
    if (event.kind === "run finished") await event.pipeline.afterRun?.(deps.prisma, event.run.id);
  },
  onFailure: "logged",
};
