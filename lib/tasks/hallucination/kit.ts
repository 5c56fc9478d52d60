/** The hallucination task's part of the testing-and-demo kit (testkit/task-kit.ts): its stub rules, demo part and crawl data. */
import type { TaskKit } from "../../../testkit/task-kit";
import { HALLUCINATION_RULES } from "./stub-rules";

const kit: TaskKit = {
  id: "hallucination",
  stubRules: HALLUCINATION_RULES,
  demoSeed: async () => (await import("./demo-seed")).hallucinationDemo,
};
export default kit;
