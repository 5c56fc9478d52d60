import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import { projectsWhereActorMay, type ProjectAccess } from "../../authz/permissions";
import { decryptSecret, encryptSecret } from "../../crypto/secret-box";
import { AppError, ConflictError, ValidationError } from "../../errors";
import { managedEndpoint } from "./endpoint-lifecycle";
import { assertEndpointUrlAllowed } from "./endpoint-url-policy";
import { appSecret, publicEndpoint } from "./endpoints";

/**
 * Endpoints reused across a user's projects: the Judge page offers the endpoints of the caller's other projects
 * (where they may manage endpoints too), and picking one copies it, key included, into this project. The key is
 * decrypted and encrypted again on the server; it is never listed or answered.
 */

/** At most this many endpoints are offered (the newest): a site admin manages every project's. */
export const REUSABLE_ENDPOINTS_LIMIT = 200;

/** An endpoint of another project, as offered for reuse: what identifies it, never its key. */
export interface ReusableEndpoint {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  hasApiKey: boolean;
  project: { id: string; name: string };
  /** This project already has an endpoint (not archived) with the same base URL and model, e.g. an earlier copy. */
  alreadyHere: boolean;
}

/**
 * The endpoints (not archived) of the actor's other projects in which they may manage endpoints, offered to the
 * access's project, where they manage endpoints too; the newest first, at most
 * REUSABLE_ENDPOINTS_LIMIT.
 */
export async function listReusableEndpoints(
  prisma: PrismaClient,
  access: ProjectAccess<"endpoints.manage">,
): Promise<ReusableEndpoint[]> {
  const { actor, projectId: toProjectId } = access;
  const [rows, here] = await Promise.all([
    prisma.judgeEndpoint.findMany({
      where: {
        archivedAt: null,
        projectId: { not: toProjectId },
        project: projectsWhereActorMay(actor, "endpoints.manage"),
      },
      select: {
        id: true,
        name: true,
        baseUrl: true,
        model: true,
        apiKeyEncrypted: true,
        project: { select: { id: true, name: true } },
      },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: REUSABLE_ENDPOINTS_LIMIT,
    }),
    prisma.judgeEndpoint.findMany({
      where: { projectId: toProjectId, archivedAt: null },
      select: { baseUrl: true, model: true },
    }),
  ]);
  const sameServer = (a: { baseUrl: string; model: string }, b: { baseUrl: string; model: string }) =>
    a.baseUrl === b.baseUrl && a.model === b.model;
  return rows.map(({ apiKeyEncrypted, ...row }) => ({
    ...row,
    hasApiKey: apiKeyEncrypted !== null,
    alreadyHere: here.some((endpoint) => sameServer(endpoint, row)),
  }));
}

/** A stored key that the current APP_SECRET cannot open: the copy would have no usable key. */
export class UndecryptableKeyError extends AppError {
  constructor(endpointName: string) {
    super(
      409,
      "key_undecryptable",
      `The API key of endpoint ${endpointName} cannot be decrypted: APP_SECRET changed since it was stored. Add the endpoint here with its key instead.`,
    );
  }
}

/**
 * Copies endpoint `fromEndpointId` of the project `from` is for into the project `to` is for: every setting, what its
 * last probe found (the same server and model), and its key, decrypted and encrypted again; a new endpoint, not
 * archived, created by the actor. The actor must be allowed to manage endpoints in both projects, so it takes both
 * accesses (the route checks the target first, then the endpoint's project: lib/api/record-access.ts); an endpoint
 * not in `from`'s project is "No such endpoint.". The base URL goes through the endpoint policy again, as on creation.
 * The source is read and the copy written in one transaction.
 */
export async function copyEndpointFromProject(
  prisma: PrismaClient,
  to: ProjectAccess<"endpoints.manage">,
  from: ProjectAccess<"endpoints.manage">,
  fromEndpointId: string,
) {
  const { actor, projectId: toProjectId } = to;
  const checked = await managedEndpoint(prisma, from, fromEndpointId);
  if (checked.projectId === toProjectId)
    throw new ValidationError(`Endpoint ${checked.name} is already in this project.`);
  await assertEndpointUrlAllowed(checked.baseUrl);
  const row = await prisma.$transaction(async (tx) => {
    // Read again inside the transaction: the copy carries the key and settings as they are when it is written.
    const source = await tx.judgeEndpoint.findUniqueOrThrow({ where: { id: checked.id } });
    if (source.baseUrl !== checked.baseUrl)
      throw new ConflictError(`Endpoint ${source.name} changed its base URL while it was being copied; pick it again.`);
    // What belongs to the source row itself stays behind; every other column (a setting added later too) is copied.
    const {
      id,
      projectId,
      apiKeyEncrypted,
      archivedAt,
      createdById,
      createdAt,
      updatedAt,
      capabilities,
      tokenRule,
      ...settings
    } = source;
    let apiKey: string | null = null;
    if (apiKeyEncrypted !== null) {
      try {
        apiKey = decryptSecret(apiKeyEncrypted, appSecret());
      } catch {
        throw new UndecryptableKeyError(source.name);
      }
    }
    return tx.judgeEndpoint.create({
      data: {
        ...settings,
        capabilities: capabilities === null ? Prisma.DbNull : (capabilities as Prisma.InputJsonValue),
        tokenRule: tokenRule === null ? Prisma.DbNull : (tokenRule as Prisma.InputJsonValue),
        projectId: toProjectId,
        createdById: actor.userId,
        apiKeyEncrypted: apiKey === null ? null : encryptSecret(apiKey, appSecret()),
      },
    });
  });
  return publicEndpoint(row);
}
