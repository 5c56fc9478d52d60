import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "./paths";

/**
 * APP_SECRET signs session cookies (and will encrypt stored LLM API keys). When it is not set,
 * one is generated once and kept in DATA_DIR/secret so sessions survive restarts.
 */
export function resolveAppSecret(): string {
  const fromEnv = process.env.APP_SECRET;
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error("APP_SECRET must be at least 32 characters long.");
    return fromEnv;
  }
  const file = path.join(dataDir(), "secret");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
