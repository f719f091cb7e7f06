import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EnvironmentBanner } from "./environment-banner";

describe("the development banner", () => {
  it("is never laid over the page, where it covered the sticky Create and Save buttons", () => {
    for (const place of ["strip", "sidebar"] as const) {
      const html = renderToStaticMarkup(<EnvironmentBanner serverUrl="http://localhost:3000" place={place} />);
      expect(html).toContain("DEVELOPMENT ENVIRONMENT");
      expect(html).not.toMatch(/\b(md:|lg:)?(fixed|absolute|sticky)\b/);
    }
  });

  it("shows nothing in production", () => {
    expect(renderToStaticMarkup(<EnvironmentBanner serverUrl="https://www.balanceandcrown.nl" place="sidebar" />)).toBe("");
  });
});
