// TEST TOOL: `npm run stub-llm -- --port 4010 [--latency 300 | --latency 2000-8000] [--answer-bytes 1500]
// [--batch-delay 2000] [--batch-failed-share 0] [--video-mode all|video-only|no-video]` serves a stand-in for an OpenAI-compatible chat-completions API (no
// model, canned rule-based answers, fault injection). It answers from the task folders' kits (testkit/task-kits.ts),
// so it loads none of the app's task registry. See testkit/llm-stub/stub-server.ts and docs/testing.md, "The stub LLM".
import { parseArgs } from "node:util";
import { startStubLlm } from "../testkit/llm-stub/stub-server";
import { stubVideoOptionsPatch } from "../testkit/llm-stub/stub-video";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    host: { type: "string", default: "127.0.0.1" },
    // A fixed latency in ms, or a range "MIN-MAX" each answer's latency is drawn from uniformly.
    latency: { type: "string", default: "0" },
    "answer-bytes": { type: "string" },
    quiet: { type: "boolean" },
    "batch-delay": { type: "string", default: "2000" },
    "batch-failed-share": { type: "string", default: "0" },
    // How video_url parts are taken (testkit/llm-stub/stub-video.ts): all, video-only or no-video.
    "video-mode": { type: "string", default: "all" },
  },
});
const stub = await startStubLlm({
  port: Number(values.port),
  host: values.host,
  latencyMs: Number(values.latency.split("-")[0]),
  latencyMaxMs: values.latency.includes("-") ? Number(values.latency.split("-")[1]) : undefined,
  answerBytes: values["answer-bytes"] === undefined ? undefined : Number(values["answer-bytes"]),
  batch: { completionDelayMs: Number(values["batch-delay"]), failedShare: Number(values["batch-failed-share"]) },
  video: stubVideoOptionsPatch.parse({ mode: values["video-mode"] }),
  log: values.quiet ? undefined : (line) => console.log(`[stub-llm] ${line}`),
});
console.log(`[stub-llm] TEST TOOL — simulated answers, not a model. OpenAI base URL: ${stub.baseURL}`);
const stop = () => void stub.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
