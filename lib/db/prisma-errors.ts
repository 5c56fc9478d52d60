/**
 * The Prisma error codes the app turns into answers of its own (https://www.prisma.io/docs/orm/reference/error-reference):
 * a unique constraint failed (two first saves raced, a name is taken) and a foreign key constraint failed (a row
 * still in use). Checked by code rather than class, so an error rethrown through a transaction or the
 * reconnecting adapter still counts.
 */
export const UNIQUE_VIOLATION = "P2002";
export const FOREIGN_KEY_VIOLATION = "P2003";

export function isPrismaError(error: unknown, code: typeof UNIQUE_VIOLATION | typeof FOREIGN_KEY_VIOLATION): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
