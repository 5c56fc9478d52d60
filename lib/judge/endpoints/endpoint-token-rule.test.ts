/**
 * An endpoint's own token rule for the cost estimate: set on create, cleared with null (back to the provider's
 * default), left alone when a change omits it, copied with the endpoint to another project; a rule that is not three
 * non-negative numbers is refused.
 */
import { describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { endpointInputSchema, endpointUpdateSchema } from "./endpoint-input.validation";
import { copyEndpointFromProject } from "./endpoint-reuse";
import { updateEndpoint } from "./endpoints";
import { accessOfEndpoint } from "../../../testkit/testing/record-access";
import { projectAccess } from "../../authz/permissions";

const rule = { tokensPerImage: 300, tokensPerVideoFrame: 150, tokensPerVideoSecond: 40 };

describe("an endpoint's token rule", () => {
  it("is stored, kept when a change omits it, cleared with null, and copied with the endpoint", async () => {
    const owner = await makeUser();
    const first = await createProject(prisma, owner, { name: "First" });
    const second = await createProject(prisma, owner, { name: "Second" });
    const endpoint = await createStubEndpoint(prisma, owner, first.id, "http://127.0.0.1:9/v1", "stub-vision", {
      tokenRule: rule,
    });
    expect(endpoint.tokenRule).toEqual(rule);
    const copy = await copyEndpointFromProject(
      prisma,
      await projectAccess(prisma, owner, second.id, "endpoints.manage"),
      await projectAccess(prisma, owner, first.id, "endpoints.manage"),
      endpoint.id,
    );
    expect(copy.tokenRule).toEqual(rule);

    const renamed = await updateEndpoint(
      prisma,
      await accessOfEndpoint(prisma, owner, endpoint.id),
      endpoint.id,
      endpointUpdateSchema.parse({ name: "renamed" }),
    );
    expect(renamed.tokenRule).toEqual(rule);
    const cleared = await updateEndpoint(
      prisma,
      await accessOfEndpoint(prisma, owner, endpoint.id),
      endpoint.id,
      endpointUpdateSchema.parse({ tokenRule: null }),
    );
    expect(cleared.tokenRule).toBeNull();
    // Copying an endpoint without a rule copies none.
    const plain = await copyEndpointFromProject(
      prisma,
      await projectAccess(prisma, owner, second.id, "endpoints.manage"),
      await projectAccess(prisma, owner, first.id, "endpoints.manage"),
      endpoint.id,
    );
    expect(plain.tokenRule).toBeNull();
  });

  it("refuses a rule that is not three non-negative numbers", () => {
    const base = { name: "e", baseUrl: "http://x/v1", model: "m" };
    expect(endpointInputSchema.safeParse({ ...base, tokenRule: { ...rule, tokensPerImage: -1 } }).success).toBe(false);
    expect(endpointInputSchema.safeParse({ ...base, tokenRule: { tokensPerImage: 1 } }).success).toBe(false);
    expect(endpointInputSchema.safeParse({ ...base, tokenRule: { ...rule, extra: 1 } }).success).toBe(false);
    expect(endpointUpdateSchema.safeParse({ tokenRule: "255" }).success).toBe(false);
    expect(endpointInputSchema.safeParse({ ...base, tokenRule: rule }).success).toBe(true);
  });
});
