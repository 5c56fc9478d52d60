import { createPrismaClient } from "../db/prisma";
import { createFirstAdmin, hasAnyUser } from "./users";

/** With ADMIN_EMAIL and ADMIN_PASSWORD set and no users yet, creates that site admin. */
export async function seedAdminFromEnv(databaseUrl: string, log: (line: string) => void): Promise<void> {
  const email = process.env.ADMIN_EMAIL;
  const password = process.env.ADMIN_PASSWORD;
  if (!email || !password) return;
  const prisma = createPrismaClient(databaseUrl);
  try {
    if (await hasAnyUser(prisma)) return;
    await createFirstAdmin(prisma, { email, password });
    log(`created the site admin ${email} from ADMIN_EMAIL/ADMIN_PASSWORD`);
  } finally {
    await prisma.$disconnect();
  }
}
