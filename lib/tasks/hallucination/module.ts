import type { TaskModule } from "../task-module";
import { hallucinationPipeline } from "./pipeline";
import { importT2vHaluBench } from "./t2vhalubench";

const task: TaskModule = {
  id: "hallucination",
  pipelines: [hallucinationPipeline],
  // Called through a wrapper: the label-set import reads this module while t2vhalubench.ts may still be loading.
  labelSetFormats: [{ id: "t2vhalubench", importLabels: (prisma, actor, projectId, input) => importT2vHaluBench(prisma, actor, projectId, input) }],
};
export default task;
