// `npm start` serves the production build; this makes one when there is none or the sources changed since.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildId = path.join(root, ".next", "BUILD_ID");
const inputs = ["src", "public", "drizzle", "next.config.ts", "package-lock.json", "postcss.config.mjs", "tsconfig.json"];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
const changedAt = Math.max(...inputs.map((input) => newestChange(path.join(root, input))));
if (builtAt > changedAt) {
  console.log("Production build is up to date.");
} else {
  console.log(builtAt ? "Sources changed since the last build; building again..." : "No production build yet; building (a minute or two)...");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
