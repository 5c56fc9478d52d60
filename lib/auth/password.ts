import { hash, verify } from "@node-rs/argon2";

// argon2id with the library's defaults (19 MiB memory, 2 iterations: OWASP's minimum for argon2id).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
