/**
 * TEST TOOL. The stub LLM's route table: every path it answers, with its methods and its handler, in the order they
 * are tried. A request no route takes gets a 404 naming it (../stub-server.ts).
 */
import { createBatch, getOrCancelBatch } from "./batches";
import { azureChatCompletions, chatCompletions } from "./chat-completions";
import { listModels, listRequests, queueFault, resetRequests, setBatchOptions, setVideoOptions } from "./control";
import { getFile, uploadFile } from "./files";
import type { StubRoute } from "./route";

export type { StubRoute } from "./route";

export const STUB_ROUTES: readonly StubRoute[] = [
  { methods: ["GET"], path: /^\/(?:v1\/)?models$/, handle: listModels },
  // Control routes, for a process that is not the test's (the app under e2e, `npm run stub-llm`).
  { methods: ["POST"], path: /^\/__stub\/faults$/, handle: queueFault },
  { methods: ["GET"], path: /^\/__stub\/requests$/, handle: listRequests },
  { methods: ["POST"], path: /^\/__stub\/reset$/, handle: resetRequests },
  { methods: ["POST"], path: /^\/__stub\/batch-options$/, handle: setBatchOptions },
  { methods: ["POST"], path: /^\/__stub\/video-options$/, handle: setVideoOptions },
  // OpenAI's Batch API: files, then batches.
  { methods: ["POST"], path: /^\/v1\/files$/, handle: uploadFile },
  { methods: ["GET"], path: /^\/v1\/files\/([^/]+)(\/content)?$/, handle: getFile },
  { methods: ["POST"], path: /^\/v1\/batches$/, handle: createBatch },
  { methods: ["GET"], path: /^\/v1\/batches\/([^/]+)$/, handle: getOrCancelBatch },
  { methods: ["GET", "POST"], path: /^\/v1\/batches\/([^/]+)(\/cancel)$/, handle: getOrCancelBatch },
  // Chat completions, OpenAI's path and Azure OpenAI's deployment path.
  { methods: ["POST"], path: /^\/(?:v1\/)?chat\/completions$/, handle: chatCompletions },
  { methods: ["POST"], path: /^\/openai\/deployments\/[^/]+\/chat\/completions$/, handle: azureChatCompletions },
];
