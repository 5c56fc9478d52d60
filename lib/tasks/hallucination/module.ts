import type { TaskModule } from "../task-module";
import { hallucinationPipeline } from "./pipeline";
import { HALLUCINATION_RULES } from "./stub-rules";
import { hallucinationSetupSettings } from "./setup-settings";

const task: TaskModule = {
  id: "hallucination",
  pipelines: [hallucinationPipeline],
  stubRules: HALLUCINATION_RULES,
  demoSeed: async () => (await import("./demo-seed")).hallucinationDemo,
  // Loaded when used: the importer needs the label-set core, which reads the registry this module is part of.
  labelSetFormats: [{ id: "t2vhalubench", importLabels: async (prisma, actor, projectId, input) => (await import("./t2vhalubench")).importT2vHaluBench(prisma, actor, projectId, input) }],
  setupSettings: hallucinationSetupSettings,
};
export default task;
