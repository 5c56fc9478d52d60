import { randomBytes } from "node:crypto";
import { createUser } from "../../lib/auth/users";
import type { PrismaClient } from "../../lib/generated/prisma/client";

/**
 * A simulated reviewer's account, made once (its password is random and never shown: nobody signs in as it), as a
 * reviewer of the project. The demo's parts give it the verdicts and judgments a person would.
 */
export async function simulatedReviewer(
  prisma: PrismaClient,
  projectId: string,
  reviewer: { email: string; name: string },
): Promise<string> {
  const existing = await prisma.user.findUnique({ where: { email: reviewer.email }, select: { id: true } });
  const userId =
    existing?.id ??
    (
      await createUser(prisma, {
        email: reviewer.email,
        name: reviewer.name,
        password: randomBytes(24).toString("base64url"),
        isAdmin: false,
      })
    ).id;
  await prisma.projectMember.upsert({
    where: { projectId_userId: { projectId, userId } },
    create: { projectId, userId, role: "reviewer" },
    update: {},
  });
  return userId;
}
