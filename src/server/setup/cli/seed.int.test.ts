import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "seed-cli-"));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function seed(args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--conditions", "react-server", "src/server/setup/cli/seed.ts", ...args], {
    cwd: root,
    env: { ...process.env, ENVIRONMENT: "production", DATA_DIR: dataDir },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("npm run db:seed in production", () => {
  it("refuses, with or without --if-empty, before it opens any database", () => {
    for (const args of [[], ["--if-empty"]]) {
      const result = seed(args);
      expect(result.status).not.toBe(0);
      expect(result.output).toContain("Refusing to seed: ENVIRONMENT=production");
      expect(result.output).toContain("--force-production");
    }
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  }, 60_000);
});
