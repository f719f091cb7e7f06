import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("asking people to confirm", () => {
  it("never uses the browser's confirm(), alert() or prompt(): the shop asks in its own dialog (useConfirm)", () => {
    const found = readdirSync("src", { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes(".test."))
      .flatMap((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [...readFileSync(file, "utf8").matchAll(/\b(window|globalThis|self)\.(confirm|alert|prompt)\(/g)].map((match) => `${file}: ${match[0]}`);
      });
    expect(found).toEqual([]);
  });
});
