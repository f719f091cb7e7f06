import { describe, expect, it } from "vitest";
import { seedsDemoOnStart } from "./startup";

describe("the demo seed on start", () => {
  it("comes with the sandboxes, or with SEED_DEMO=1, and never in production", () => {
    expect(seedsDemoOnStart({ ENVIRONMENT: "development", INTEGRATIONS: "sandbox" })).toBe(true);
    expect(seedsDemoOnStart({ ENVIRONMENT: "staging", INTEGRATIONS: "live" })).toBe(false);
    expect(seedsDemoOnStart({ ENVIRONMENT: "staging", INTEGRATIONS: "live", SEED_DEMO: "1" })).toBe(true);
    expect(seedsDemoOnStart({ ENVIRONMENT: "production", INTEGRATIONS: "live", SEED_DEMO: "1" })).toBe(false);
    expect(seedsDemoOnStart({ ENVIRONMENT: "production", INTEGRATIONS: "sandbox" })).toBe(false);
  });
});
