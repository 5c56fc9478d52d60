import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";

// One client per process; Next.js dev reloads modules, so keep it on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

export function createPrismaClient(connectionString: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString }) });
}

function databaseUrlOrThrow(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error("DATABASE_URL is not set. Start FrameJury with `npm start` (it sets it) or set it yourself.");
  }
  return url;
}

export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  // Created on first use, so importing this module never needs a database (e.g. during `next build`).
  get(_target, property) {
    globalForPrisma.prisma ??= createPrismaClient(databaseUrlOrThrow());
    const value = Reflect.get(globalForPrisma.prisma, property);
    return typeof value === "function" ? value.bind(globalForPrisma.prisma) : value;
  },
});
