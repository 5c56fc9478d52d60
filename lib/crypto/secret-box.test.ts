import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "./secret-box";

describe("secret box", () => {
  it("round-trips, never contains the plaintext, and refuses another secret or tampering", () => {
    const sealed = encryptSecret("sk-test-123", "a".repeat(40));
    expect(sealed).not.toContain("sk-test-123");
    expect(encryptSecret("sk-test-123", "a".repeat(40))).not.toBe(sealed); // random IV
    expect(decryptSecret(sealed, "a".repeat(40))).toBe("sk-test-123");
    expect(() => decryptSecret(sealed, "b".repeat(40))).toThrow(/APP_SECRET changed/);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => decryptSecret(parts.join("."), "a".repeat(40))).toThrow();
  });
});
