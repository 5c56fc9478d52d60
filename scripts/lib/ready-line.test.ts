import { describe, expect, it } from "vitest";
import { readyLine } from "./ready-line";

describe("the line npm start prints when the app answers", () => {
  it("invites a sign-in, or the admin account's creation, when started on its own", () => {
    expect(readyLine({ address: "http://localhost:3000", anyUser: true, startedBy: "npm start" })).toBe(
      "FrameJury is ready at http://localhost:3000 — open it and sign in. Ctrl-C stops it.",
    );
    expect(readyLine({ address: "http://localhost:3000", anyUser: false, startedBy: "npm start" })).toContain(
      "open it to create the admin account",
    );
  });

  it("started by the demo, says to wait for the demo's own line with the account instead of inviting a sign-in", () => {
    const line = readyLine({ address: "http://localhost:3001", anyUser: true, startedBy: "npm run demo" });
    expect(line).not.toContain("sign in as");
    expect(line).not.toContain("open it and sign in");
    expect(line).toContain("prints where to sign in when it is done");
  });
});
