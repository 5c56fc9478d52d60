import type { z } from "zod";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { decryptSecret, encryptSecret } from "../../crypto/secret-box";
import { NotFoundError } from "../../errors";
import type { EndpointConfig } from "../engine/judge-deps";
import { assertEndpointUrlAllowed, EndpointNotAllowedError } from "./endpoint-url-policy";
import type { endpointInputSchema, endpointUpdateSchema } from "./endpoint-input.validation";
import { log } from "../../observability/logger";
import { capabilitiesOf } from "./endpoint-capabilities";

export function appSecret(): string {
  const secret = process.env.APP_SECRET;
  if (!secret) throw new Error("APP_SECRET is not set; it encrypts endpoint API keys.");
  return secret;
}

/** An endpoint as shown to anyone: never the key, only whether there is one. */
export function publicEndpoint(row: Awaited<ReturnType<PrismaClient["judgeEndpoint"]["findFirstOrThrow"]>>) {
  const { apiKeyEncrypted, ...rest } = row;
  return { ...rest, hasApiKey: apiKeyEncrypted !== null };
}

export async function createEndpoint(
  prisma: PrismaClient,
  access: ProjectAccess<"endpoints.manage">,
  input: z.output<typeof endpointInputSchema>,
) {
  const { actor, projectId } = access;
  await assertEndpointUrlAllowed(input.baseUrl);
  const { apiKey, tokenRule, ...fields } = input;
  const row = await prisma.judgeEndpoint.create({
    data: {
      ...fields,
      ...(tokenRule ? { tokenRule } : {}),
      projectId,
      createdById: actor.userId,
      apiKeyEncrypted: apiKey ? encryptSecret(apiKey, appSecret()) : null,
    },
  });
  return publicEndpoint(row);
}

export async function updateEndpoint(
  prisma: PrismaClient,
  access: ProjectAccess<"endpoints.manage">,
  endpointId: string,
  input: z.output<typeof endpointUpdateSchema>,
) {
  // An endpoint of another project is as unknown as one that does not exist.
  const existing = await prisma.judgeEndpoint.findFirst({ where: { id: endpointId, projectId: access.projectId } });
  if (!existing) throw new NotFoundError("No such endpoint.");
  if (input.baseUrl !== undefined) await assertEndpointUrlAllowed(input.baseUrl);
  const { apiKey, archived, tokenRule, ...fields } = input;
  // A probe describes a server, a model and a dialect: once one of them changes, its findings no longer hold.
  const probeStale = (["baseUrl", "model", "apiVersion"] as const).some(
    (field) => fields[field] !== undefined && fields[field] !== existing[field],
  );
  // The key was given for one server: a base URL on another origin would get it as `Authorization: Bearer` on
  // the next call (and an endpoint reused by several projects lets another project's owner move it), so the
  // stored key stays only while the origin does, or when the request gives the key again.
  const apiKeyDropped =
    apiKey === undefined &&
    existing.apiKeyEncrypted !== null &&
    fields.baseUrl !== undefined &&
    !sameOrigin(fields.baseUrl, existing.baseUrl);
  const row = await prisma.judgeEndpoint.update({
    where: { id: endpointId },
    data: {
      ...fields,
      // A JSON column is cleared with DbNull: null means the provider's default rule.
      ...(tokenRule === undefined ? {} : { tokenRule: tokenRule ?? Prisma.DbNull }),
      ...(probeStale ? { capabilities: Prisma.DbNull, probedAt: null } : {}),
      // An omitted key keeps the stored one (on the same origin); an empty string removes it.
      ...(apiKey === undefined ? {} : { apiKeyEncrypted: apiKey ? encryptSecret(apiKey, appSecret()) : null }),
      ...(apiKeyDropped ? { apiKeyEncrypted: null } : {}),
      ...(archived === undefined ? {} : { archivedAt: archived ? (existing.archivedAt ?? new Date()) : null }),
    },
  });
  return { ...publicEndpoint(row), apiKeyDropped };
}

/** Do two base URLs reach the same server (scheme, host and port)? A path or query of their own does not matter. */
function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** A project's endpoints; archived ones (which no new run may use) only with `includeArchived`. */
export async function listEndpoints(
  prisma: PrismaClient,
  access: ProjectAccess,
  options: { includeArchived?: boolean } = {},
) {
  const rows = await prisma.judgeEndpoint.findMany({
    where: { projectId: access.projectId, ...(options.includeArchived ? {} : { archivedAt: null }) },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(publicEndpoint);
}

/**
 * The endpoint a run calls, with its key decrypted: for the worker only, never for a response. With
 * `endpointId`, another endpoint of the run's project that some of its steps call (a QA run's judge).
 */
export async function endpointConfigForRun(
  prisma: PrismaClient,
  runId: string,
  endpointId?: string,
): Promise<EndpointConfig> {
  const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId }, include: { endpoint: true } });
  const e =
    endpointId && endpointId !== run.endpointId
      ? await prisma.judgeEndpoint.findFirst({ where: { id: endpointId, projectId: run.projectId } })
      : run.endpoint;
  if (!e) throw new Error(`Run ${runId} names endpoint ${endpointId}, which is not an endpoint of its project.`);
  return endpointConfigOf(e);
}

/** An endpoint row as the LLM client calls it, with its key decrypted: for server-side calls only, never for a response. */
export function endpointConfigOf(
  e: Awaited<ReturnType<PrismaClient["judgeEndpoint"]["findFirstOrThrow"]>>,
): EndpointConfig {
  return {
    id: e.id,
    baseUrl: e.baseUrl,
    model: e.model,
    apiKey: e.apiKeyEncrypted ? decryptSecret(e.apiKeyEncrypted, appSecret()) : null,
    imageDetail: (["low", "high", "auto"].includes(e.imageDetail)
      ? e.imageDetail
      : "auto") as EndpointConfig["imageDetail"],
    temperature: e.temperature,
    maxConcurrency: e.maxConcurrency,
    requestsPerMinute: e.requestsPerMinute,
    timeoutSeconds: e.timeoutSeconds,
    structuredOutput: e.structuredOutput,
    pricePer1kInput: e.pricePer1kInput,
    pricePer1kOutput: e.pricePer1kOutput,
    supportsBatchApi: e.supportsBatchApi,
    maxTokens: e.maxTokens,
    apiVersion: e.apiVersion,
    sendImageDetail: e.sendImageDetail,
    capabilities: capabilitiesOf(e.capabilities),
    requestLogprobs: e.requestLogprobs,
    topLogprobs: e.topLogprobs,
  };
}

/** The default endpoint from OPENAI_BASE_URL / OPENAI_API_KEY, created in a project on first use. */
export async function ensureEnvDefaultEndpoint(prisma: PrismaClient, access: ProjectAccess<"endpoints.manage">) {
  const { projectId } = access;
  const baseUrl = process.env.OPENAI_BASE_URL ?? (process.env.OPENAI_API_KEY ? "https://api.openai.com/v1" : null);
  if (!baseUrl) return null;
  const existing = await prisma.judgeEndpoint.findFirst({ where: { projectId, name: "default (environment)" } });
  if (existing) return publicEndpoint(existing);
  try {
    await assertEndpointUrlAllowed(baseUrl);
  } catch (error) {
    // A misconfigured environment must not break the Judge page; the admin finds the reason in the log.
    if (!(error instanceof EndpointNotAllowedError)) throw error;
    log().warn({ reason: error.message }, "OPENAI_BASE_URL is not used as a default endpoint");
    return null;
  }
  return createEndpoint(prisma, access, {
    name: "default (environment)",
    baseUrl,
    model: process.env.OPENAI_MODEL ?? "gpt-4o",
    apiKey: process.env.OPENAI_API_KEY ?? null,
    imageDetail: "auto",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 120,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
}
