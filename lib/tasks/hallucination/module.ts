import type { TaskModule } from "../../task-modules/task-module";
import { hallucinationPipeline } from "./pipeline";
import { hallucinationSetupSettings } from "./setup-settings";
import { HALLUCINATION_TASK } from "./task";

const task: TaskModule = {
  id: "hallucination",
  pipelines: [hallucinationPipeline],
  // Loaded when used: the importer needs the label-set core, which reads the registry this module is part of.
  labelSetFormats: [
    {
      id: "t2vhalubench",
      importLabels: async (prisma, access, input) =>
        (await import("./t2vhalubench")).importT2vHaluBench(prisma, access, input),
    },
  ],
  setupSettings: hallucinationSetupSettings,
  // The per-key-frame (s1–s10) and per-cluster (d1–d9) categories, each alignable on its own labels.
  alignableTargets: [
    {
      pipeline: "hallucination",
      targets: HALLUCINATION_TASK.targets.filter((t) => t.scope === "key_frame").map((t) => t.id),
      valueStep: "static_hallucination",
      rewriteStep: "static_hallucination",
    },
    {
      pipeline: "hallucination",
      targets: HALLUCINATION_TASK.targets.filter((t) => t.scope === "cluster").map((t) => t.id),
      valueStep: "dynamic_hallucination",
      rewriteStep: "dynamic_hallucination",
    },
  ],
};
export default task;
