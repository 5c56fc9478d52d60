import { agreementReport } from "../lib/agreement/report";
import { DEFAULT_AGREEMENT_OPTIONS, type AgreementItem } from "../lib/agreement/types";
let seed = 1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const items: AgreementItem[] = [];
const dims = Array.from({ length: 18 }, (_, i) => `dim${i}`);
const models = ["A", "B", "C", "D"];
for (let i = 0; i < 4084; i++) {
  const kind = i < 1100 ? "verdict" : i < 1500 ? "overall" : "score";
  const cat = kind === "score" ? (i % 2 ? "s3" : "inconsistency") : kind;
  const judge = kind === "verdict" ? (rnd() < 0.5 ? 1 : 0) : kind === "overall" ? Math.round(rnd() * 100) : Math.round(rnd() * 10);
  const ratings = [{ reviewerId: `r${i % 3}`, value: kind === "verdict" ? (rnd() < 0.5 ? 1 : 0) : kind === "overall" ? Math.round(rnd() * 100) : Math.round(rnd() * 10) }];
  if (kind === "verdict") ratings.push({ reviewerId: `r${(i + 1) % 3}`, value: rnd() < 0.5 ? 1 : 0 });
  items.push({
    taskId: "hallucination", key: `run|k${i}`, targetKey: `k${i}`, targetType: kind === "score" ? "score" : kind, runId: "run", videoId: `v${i}`, category: cat,
    stepId: kind === "score" ? (cat === "s3" ? "static_hallucination" : "inconsistency") : null, scopeIndex: kind === "score" ? 0 : null, judge, ratings,
    dimensions: [dims[i % 18]!], model: models[i % 4]!, endpointId: "e", promptVersion: "abc",
    ...(kind === "verdict" ? { videoValues: { S: rnd() * 10, D: rnd() * 10, I: rnd() * 10, overall: rnd() * 100, worst: rnd() * 10 } } : {}),
  });
}
const input = { items, reviewers: [0, 1, 2].map((i) => ({ id: `r${i}`, label: `r${i}` })), runs: [{ id: "run", endpointId: "e", endpointName: "e", model: "m", createdAt: "" }], videoCount: 50000, judgeItemCount: 1e6 };
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  agreementReport(input, DEFAULT_AGREEMENT_OPTIONS);
  console.log("report ms", (performance.now() - t).toFixed(0));
}
