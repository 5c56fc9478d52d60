/**
 * The optimizer's request: the criterion's definition and the train videos where the judge and the labels
 * disagree, each with its frames (attached as images), the judge's value and reason and the label; it answers
 * a rewritten definition. Only train videos ever reach it.
 */
import { z } from "zod";
import { NotFoundError } from "../errors";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { endpointConfigOf } from "../judge/endpoints/endpoints";
import { openAiCompatibleClient, type ChatImage, type LlmClient } from "../judge/calls/llm-client";
import type { ObjectStorage } from "../storage/object-storage";

/** The optimizer prompt's first line: the stub LLM's optimizer rule matches it (testkit/llm-stub/alignment-stub-rule.ts). */
export const OPTIMIZER_MARKER = "FrameJury alignment optimizer";

export interface Disagreement {
  videoPrompt: string | null;
  judgeValue: number;
  judgeReason: string | null;
  label: number;
  images: ChatImage[];
}

const answerSchema = z.object({ definition: z.string().trim().min(1).max(4000) });

export function optimizerPrompt(
  criterion: { name: string; definition: string; scale: string },
  disagreements: readonly Disagreement[],
): string {
  const lines = [
    `${OPTIMIZER_MARKER}.`,
    `A vision judge scores videos on the criterion "${criterion.name}" (${criterion.scale}). Its definition now reads:`,
    `<definition>${criterion.definition}</definition>`,
    `On these videos its value differs from the human label. Their frames are attached in this order.`,
    ...disagreements.map(
      (d, i) =>
        `Video ${i + 1} (${d.images.length} frame(s)): prompt "${d.videoPrompt ?? ""}"; judge value ${d.judgeValue}; human label ${d.label}; judge's reason: ${d.judgeReason ?? "(none)"}`,
    ),
    `Rewrite the definition so that the judge would agree with the humans. Keep the scale. Answer JSON: {"definition": "<the new definition>"}`,
  ];
  return lines.join("\n");
}

/** The optimizer endpoint of the project, its settings and its client (the deps' client when a test gives one). */
export async function alignmentOptimizer(
  prisma: PrismaClient,
  projectId: string,
  endpointId: string,
  client?: LlmClient,
) {
  const optimizer = await prisma.judgeEndpoint.findFirst({ where: { id: endpointId, projectId } });
  if (!optimizer) throw new NotFoundError("No such optimizer endpoint in this project.");
  const config = endpointConfigOf(optimizer);
  return { config, client: client ?? openAiCompatibleClient({ baseURL: config.baseUrl, apiKey: config.apiKey }) };
}

/** One optimizer call; the rewritten definition, or why there is none (the alignment lists it and goes on). */
export async function proposeRewrite(
  client: LlmClient,
  endpoint: {
    model: string;
    temperature: number | null;
    timeoutSeconds: number;
    pricePer1kInput: number | null;
    pricePer1kOutput: number | null;
  },
  criterion: { name: string; definition: string; scale: string },
  disagreements: readonly Disagreement[],
  signal?: AbortSignal,
): Promise<({ definition: string } | { error: string }) & { costUsd: number }> {
  const result = await client.complete(
    {
      model: endpoint.model,
      text: optimizerPrompt(criterion, disagreements),
      images: disagreements.flatMap((d) => d.images),
      temperature: endpoint.temperature,
      responseFormat: { type: "json_object" },
    },
    { timeoutMs: endpoint.timeoutSeconds * 1000, signal },
  );
  // The call costs what the optimizer endpoint's prices say, whatever its answer.
  const usage = {
    costUsd:
      ((endpoint.pricePer1kInput ?? 0) * result.promptTokens +
        (endpoint.pricePer1kOutput ?? 0) * result.completionTokens) /
      1000,
  };
  try {
    const parsed = answerSchema.safeParse(JSON.parse(result.text ?? ""));
    if (parsed.success) return { definition: parsed.data.definition, ...usage };
    return {
      error: `the optimizer's answer has no usable "definition": ${parsed.error.issues[0]?.message ?? "invalid"}`,
      ...usage,
    };
  } catch {
    return { error: "the optimizer's answer is not JSON", ...usage };
  }
}

/**
 * One train unit where the judge and the label disagree, as the optimizer sees it: the video's prompt, and the newest
 * answered call `call` finds with its reason (`reasonOf` reads it from the parsed answer; anything but a string is no
 * reason) and the first two frames it sent.
 */
export async function disagreementOf(
  prisma: PrismaClient,
  storage: ObjectStorage,
  unit: { videoId: string; call: Prisma.LlmCallWhereInput; judgeValue: number; label: number },
  reasonOf: (answer: Record<string, unknown>) => unknown,
  detail: ChatImage["detail"],
): Promise<Disagreement> {
  const video = await prisma.video.findUniqueOrThrow({ where: { id: unit.videoId }, select: { prompt: true } });
  const call = await prisma.llmCall.findFirst({
    where: { ...unit.call, videoId: unit.videoId, error: null },
    orderBy: { createdAt: "desc" },
    select: { responseText: true, request: true },
  });
  let reason: unknown = null;
  try {
    const answer: unknown = JSON.parse(call?.responseText ?? "");
    if (answer !== null && typeof answer === "object") reason = reasonOf(answer as Record<string, unknown>);
  } catch {
    reason = null;
  }
  return {
    videoPrompt: video.prompt,
    judgeValue: unit.judgeValue,
    judgeReason: typeof reason === "string" ? reason : null,
    label: unit.label,
    images: await callFrameImages(prisma, storage, call?.request, detail),
  };
}

/** The first two frames a judge call sent (its stored request's frameIds), as images for the optimizer. */
export async function callFrameImages(
  prisma: PrismaClient,
  storage: ObjectStorage,
  request: unknown,
  detail: ChatImage["detail"],
): Promise<ChatImage[]> {
  const frameIds = ((request as { frameIds?: string[] } | null)?.frameIds ?? []).slice(0, 2);
  const frames = await prisma.frame.findMany({
    where: { id: { in: frameIds } },
    select: { id: true, storageKey: true },
  });
  const images: ChatImage[] = [];
  // In the call's order (the query's is the database's).
  for (const frame of frameIds.flatMap((id) => frames.filter((f) => f.id === id))) {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.get(frame.storageKey)) chunks.push(chunk as Buffer);
    images.push({ url: `data:image/jpeg;base64,${Buffer.concat(chunks).toString("base64")}`, detail });
  }
  return images;
}
