import { describe, expect, it } from "vitest";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { openApiDocument } from "./document";
import { apiReference, codeSpans } from "./reference";

describe("codeSpans", () => {
  it("turns backticked parts into code spans and keeps the rest as text", () => {
    expect(codeSpans("`{id, name}` of the run; `dryRun` only counts.")).toEqual([
      { text: "{id, name}", code: true },
      { text: " of the run; ", code: false },
      { text: "dryRun", code: true },
      { text: " only counts.", code: false },
    ]);
    expect(codeSpans("no code here")).toEqual([{ text: "no code here", code: false }]);
    // An unpaired backtick is not code: it stays in the text.
    expect(codeSpans("a ` alone")).toEqual([{ text: "a ` alone", code: false }]);
  });

  it("leaves no literal backtick in what /docs/api shows of the routes' texts", () => {
    const texts = apiReference(openApiDocument(documentedRoutes)).flatMap((group) =>
      group.operations.flatMap((operation) => [
        operation.summary,
        operation.description ?? "",
        ...operation.parameters.map((p) => p.description ?? ""),
        ...operation.responses.map((r) => r.description),
      ]),
    );
    const withBackticks = texts.filter((text) => text.includes("`"));
    // The descriptions do use backticks (so this test can fail), and every one of them pairs into a code span.
    expect(withBackticks.length).toBeGreaterThan(10);
    const shownWithBacktick = withBackticks.filter((text) => codeSpans(text).some((span) => span.text.includes("`")));
    expect(shownWithBacktick).toEqual([]);
  });
});
