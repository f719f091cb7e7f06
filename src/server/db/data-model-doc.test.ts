import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderDataModel } from "../../../scripts/data-model-diagram";

describe("docs/data-model.md", () => {
  it("is the diagram of the current schema (run `npm run docs:data-model` after a schema change)", () => {
    const committed = readFileSync(path.join(process.cwd(), "docs", "data-model.md"), "utf8");
    expect(committed).toBe(renderDataModel());
  });
});
