import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plural } from "./plural";

describe("counted words", () => {
  it("are singular for one and grouped in thousands", () => {
    expect(plural(1, "offer")).toBe("1 offer");
    expect(plural(0, "offer")).toBe("0 offers");
    expect(plural(1204, "offer")).toBe("1,204 offers");
    expect(plural(1, "entry", "entries")).toBe("1 entry");
    expect(plural(2, "entry", "entries")).toBe("2 entries");
  });
});

/** Every source file of the screens, to read the words they put beside a count. */
function screenSources(): { file: string; text: string }[] {
  const roots = ["src/features", "src/app", "src/components"];
  return roots.flatMap((root) =>
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes(".test."))
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { file, text: readFileSync(file, "utf8") };
      }),
  );
}

describe("the screens", () => {
  it("put no plural noun after a bare count, and no 'order(s)': they say it with plural()", () => {
    // A count in a template or JSX followed by a plural noun reads "1 entries" when the count is one.
    const bareCount = /(\{formatCount\([^)]*\)\}|\$\{[\w.?!]+\}|\{[\w.?!]+\}) (entries|items|orders|products|pieces|files|offers|refunds|customers|purchases|labels|days|discounts)\b/g;
    // A line that chooses the words for one itself (`n === 1 ? "a label" : ...`), or counts past thousands, is fine.
    const choosesForOne = (line: string) => line.includes("=== 1") || /(About|More than) \S*formatCount/.test(line);
    const found = screenSources().flatMap(({ file, text }) =>
      text
        .split("\n")
        .filter((line) => !choosesForOne(line))
        .flatMap((line) => [...line.matchAll(bareCount), ...line.matchAll(/\b(order|product|item|entr(y|ie)|shipment|piece|offer|day|label|refund|file)\(s\)/g)])
        .map((match) => `${file}: ${match[0]}`),
    );
    expect(found).toEqual([]);
  });
});
