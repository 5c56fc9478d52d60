// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { EndpointCapabilitiesLine } from "./endpoint-list";

/* The Judge page wrote the probe's time "2026-11-28 07:05 UTC" beside runs named "… 28 Nov 2026 07:05". */
afterEach(cleanup);

describe("an endpoint's probe line", () => {
  it("writes when it was probed as the run names write their start", () => {
    render(
      <EndpointCapabilitiesLine
        capabilities={{
          images: "yes",
          maxImages: 16,
          jsonMode: "json_schema",
          topLogprobs: true,
          usage: true,
          contextLength: null,
          latencyMs: 120,
          notes: [],
          inputModes: null,
          maxBodyBytes: null,
        }}
        probedAt="2026-11-28T07:05:09.000Z"
        requestLogprobs={false}
      />,
    );
    expect(screen.getByTestId("endpoint-capabilities").textContent).toMatch(/^Probed 28 Nov 2026 07:05 UTC: /);
  });
});
