import type { Actor } from "../../lib/auth/actor";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import type { z } from "zod";
import { projectAccess } from "../../lib/authz/permissions";
import { createEndpoint } from "../../lib/judge/endpoints/endpoints";
import type { endpointInputSchema } from "../../lib/judge/endpoints/endpoint-input.validation";

/**
 * An endpoint of the project pointing at a stub LLM: no key, low detail, temperature 0, JSON mode on, no prices;
 * `overrides` changes any field (a name, prices, logprobs…).
 */
export async function createStubEndpoint(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  baseUrl: string,
  model = "stub-vision",
  overrides: Partial<z.input<typeof endpointInputSchema>> = {},
) {
  return createEndpoint(prisma, await projectAccess(prisma, actor, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl,
    model,
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
    ...overrides,
  } as z.output<typeof endpointInputSchema>);
}
