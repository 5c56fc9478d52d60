import { describe, expect, it } from "vitest";
import { mayCreateAccount, ssoButtons, ssoConfig, ssoErrorMessage } from "./sso";

describe("single sign-on settings", () => {
  it("is off without settings, and reads an OIDC provider and GitHub with their defaults", () => {
    expect(ssoButtons(ssoConfig({}))).toEqual([]);
    const config = ssoConfig({
      OIDC_ISSUER: "https://kc.lab.example/realms/lab/",
      OIDC_CLIENT_ID: "framejury",
      OIDC_CLIENT_SECRET: "s",
      GITHUB_CLIENT_ID: "g",
      GITHUB_CLIENT_SECRET: "h",
    });
    expect(config.oidc).toMatchObject({
      discoveryUrl: "https://kc.lab.example/realms/lab/.well-known/openid-configuration",
      scopes: ["openid", "email", "profile"],
      name: "single sign-on",
    });
    expect(ssoButtons(config).map((b) => b.label)).toEqual(["Sign in with single sign-on", "Sign in with GitHub"]);
    expect(config.newAccounts).toBe("refuse");
    expect(config.passwordSignIn).toBe(true);
  });

  it("reads SSO_NEW_ACCOUNTS, keeps SSO_CREATE_ACCOUNTS working, and turns password sign-in off only with a provider", () => {
    expect(ssoConfig({ SSO_NEW_ACCOUNTS: "approve" }).newAccounts).toBe("approve");
    expect(ssoConfig({ SSO_CREATE_ACCOUNTS: "1" }).newAccounts).toBe("create");
    expect(ssoConfig({ SSO_CREATE_ACCOUNTS: "0" }).newAccounts).toBe("refuse");
    expect(ssoConfig({ SSO_CREATE_ACCOUNTS: "1", SSO_NEW_ACCOUNTS: "approve" }).newAccounts).toBe("approve");
    expect(() => ssoConfig({ SSO_CREATE_ACCOUNTS: "0", SSO_NEW_ACCOUNTS: "create" })).toThrow(/disagree/);
    expect(() => ssoConfig({ SSO_NEW_ACCOUNTS: "maybe" })).toThrow(/SSO_NEW_ACCOUNTS is create, approve or refuse/);
    expect(mayCreateAccount(ssoConfig({ SSO_NEW_ACCOUNTS: "approve" }), "a@lab.example")).toBe(true);
    expect(() => ssoConfig({ PASSWORD_SIGN_IN: "off" })).toThrow(/needs a single sign-on provider/);
    expect(() => ssoConfig({ PASSWORD_SIGN_IN: "no", GITHUB_CLIENT_ID: "g", GITHUB_CLIENT_SECRET: "h" })).toThrow(
      /PASSWORD_SIGN_IN is on or off/,
    );
    expect(
      ssoConfig({ PASSWORD_SIGN_IN: "off", GITHUB_CLIENT_ID: "g", GITHUB_CLIENT_SECRET: "h" }).passwordSignIn,
    ).toBe(false);
  });

  it("names the variable that is wrong", () => {
    expect(() => ssoConfig({ OIDC_ISSUER: "kc.lab.example" })).toThrow(/OIDC_ISSUER/);
    expect(() => ssoConfig({ OIDC_ISSUER: "https://kc.lab.example" })).toThrow(/without OIDC_CLIENT_ID/);
    expect(() => ssoConfig({ GITHUB_CLIENT_ID: "g" })).toThrow(/GITHUB_CLIENT_SECRET/);
    expect(() => ssoConfig({ SSO_CREATE_ACCOUNTS: "yes" })).toThrow(/SSO_CREATE_ACCOUNTS/);
  });

  it("creates accounts only when asked, and only for the allowed domains", () => {
    expect(mayCreateAccount(ssoConfig({}), "a@lab.example")).toBe(false);
    const anyDomain = ssoConfig({ SSO_CREATE_ACCOUNTS: "1" });
    expect(mayCreateAccount(anyDomain, "a@anywhere.example")).toBe(true);
    const lab = ssoConfig({ SSO_CREATE_ACCOUNTS: "1", SSO_ALLOWED_DOMAINS: "Lab.Example, @other.example" });
    expect(mayCreateAccount(lab, "a@LAB.example")).toBe(true);
    expect(mayCreateAccount(lab, "b@other.example")).toBe(true);
    expect(mayCreateAccount(lab, "c@lab.example.evil")).toBe(false);
    expect(mayCreateAccount(lab, "d@sub.lab.example")).toBe(false);
  });

  it("says in words why an SSO sign-in came back", () => {
    expect(ssoErrorMessage("signup_disabled")).toMatch(/no FrameJury account/);
    expect(ssoErrorMessage("ACCOUNT_SETUP_FAILED")).toMatch(/could not be set up/);
    expect(ssoErrorMessage("weird")).toBe("Single sign-on failed (weird).");
  });
});
