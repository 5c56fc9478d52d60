import type { PrismaClient } from "../../lib/generated/prisma/client";

/** The demo project's endpoint at the stub LLM (model stub-vision), which the demo user's new projects can copy. */
export const DEMO_STUB_ENDPOINT = "Stub LLM (simulated)";

/**
 * A later `npm run demo` over a seeded database: the stub listens on a new port each time, so the demo project's
 * stub endpoint moves to `stubBaseUrl`, and with it every endpoint of the demo user's projects that pointed at the
 * old address: the copies the user made of it in their own projects (lib/judge/endpoints/endpoint-reuse.ts), which would
 * otherwise call a port nothing listens on. Returns how many endpoints moved, the demo project's own included.
 */
export async function moveDemoStubEndpoints(
  prisma: PrismaClient,
  options: { userId: string; demoProjectId: string; stubBaseUrl: string },
): Promise<number> {
  const { userId, demoProjectId, stubBaseUrl } = options;
  return prisma.$transaction(async (tx) => {
    const own = await tx.judgeEndpoint.findMany({
      where: { projectId: demoProjectId, name: DEMO_STUB_ENDPOINT },
      select: { baseUrl: true },
    });
    const previous = [...new Set(own.map((endpoint) => endpoint.baseUrl))].filter((baseUrl) => baseUrl !== stubBaseUrl);
    const moved = await tx.judgeEndpoint.updateMany({
      where: {
        OR: [
          { projectId: demoProjectId, name: DEMO_STUB_ENDPOINT },
          { baseUrl: { in: previous }, project: { members: { some: { userId } } } },
        ],
        baseUrl: { not: stubBaseUrl },
      },
      data: { baseUrl: stubBaseUrl },
    });
    return moved.count;
  });
}
