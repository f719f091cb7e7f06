#!/usr/bin/env node
// `npm run bench:lighthouse`: Lighthouse (from npm) on Chromium against the production build, with
// Lighthouse's default mobile settings (emulated phone, simulated slow 4G and CPU slowdown). Runs each of the home
// page, /search and a product page three times, in turns, and prints the median of each category score: a single
// run moves by several points with whatever else the machine is doing. Targets (issue 16): performance >= 95,
// accessibility, best practices and SEO 100.
//
// Builds first when there is no build in .next. Starts `next start` on a free port with a fresh embedded database
// (the demo catalogue), so nothing else needs to run. Chromium is found as for the end-to-end journeys
// (scripts/chromium.mjs: CHROMIUM_PATH, the system's, or @sparticuz/chromium's). LIGHTHOUSE_REPORTS=<folder>
// also writes every run's full Lighthouse JSON there (<page>-<run>.json), for finding where the time goes
// (bootup-time, unused-javascript); the audits printed are those of each page's median run.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { findChromium, quietChromiumFlags } from "../scripts/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const categories = ["performance", "accessibility", "best-practices", "seo"];
const targets = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };
const RUNS = 3;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", ...options });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // Not up yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("The shop did not become healthy within 3 minutes");
}

// Before the build and the server, so that a machine without a browser hears what to install at once.
const chromePath = await findChromium();

if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("No production build in .next: building first...");
  if ((await run(path.join(root, "node_modules", ".bin", "next"), ["build"])) !== 0) process.exit(1);
}

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-lighthouse-"));
const env = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1" };
delete env.DATABASE_URL;
delete env.INTEGRATIONS;
const server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], { cwd: root, env, detached: true, stdio: "ignore" });
const stopServer = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
};

let chrome;
try {
  await waitForHealth(baseUrl);
  const listing = await fetch(`${baseUrl}/api/trpc/shared.product.getMany?input=${encodeURIComponent(JSON.stringify({ json: { inStock: true } }))}`);
  const productId = (await listing.json()).result.data.json.products[0].id;
  const pages = [
    ["home", "/"],
    ["search", "/search?search=omega&sort=relevance:desc"],
    ["product", `/product/${productId}`],
  ];
  // Warm the server as a visited shop would be: the pages, and the image optimiser's cache for their pictures.
  for (const [, address] of pages) {
    const html = await (await fetch(`${baseUrl}${address}`)).text();
    const pictures = new Set([...html.matchAll(/\/_next\/image\?url=[^"\s,]+/g)].map((match) => match[0].replaceAll("&amp;", "&")));
    // The optimiser caches each format apart (it varies on Accept), so ask as Chromium does, for WebP.
    const accept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
    await Promise.all([...pictures].map((picture) => fetch(`${baseUrl}${picture}`, { headers: { accept } }).then((response) => response.arrayBuffer())));
  }

  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", ...quietChromiumFlags],
  });
  // Pages in turns rather than one page three times, so that a busy spell on the machine spreads over all of them.
  const runs = new Map(pages.map(([name]) => [name, []]));
  for (let run = 1; run <= RUNS; run++) {
    for (const [name, address] of pages) {
      const result = await lighthouse(`${baseUrl}${address}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories });
      const scores = Object.fromEntries(categories.map((category) => [category, Math.round((result.lhr.categories[category]?.score ?? 0) * 100)]));
      runs.get(name).push({ scores, lhr: result.lhr });
      if (process.env.LIGHTHOUSE_REPORTS) {
        mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
        writeFileSync(path.join(process.env.LIGHTHOUSE_REPORTS, `${name}-${run}.json`), result.report);
      }
    }
  }
  const results = pages.map(([name, address]) => {
    const pageRuns = runs.get(name);
    const scores = Object.fromEntries(categories.map((category) => [category, median(pageRuns.map((run) => run.scores[category]))]));
    // The run whose performance score is the median one stands for the page's audits and metrics.
    const { lhr } = pageRuns.find((run) => run.scores.performance === scores.performance);
    return { name, address, scores, performanceRuns: pageRuns.map((run) => run.scores.performance), lhr };
  });

  console.log(`\nLighthouse ${results[0].lhr.lighthouseVersion}, mobile (default) settings, ${results[0].lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "Chromium"}, median of ${RUNS} runs`);
  console.log(`${"page".padEnd(10)} ${categories.map((category) => category.padStart(15)).join("")}   performance runs`);
  for (const { name, scores, performanceRuns } of results) {
    console.log(`${name.padEnd(10)} ${categories.map((category) => String(scores[category]).padStart(15)).join("")}   ${performanceRuns.join(", ")}`);
  }
  for (const { name, lhr } of results) {
    const failing = Object.values(lhr.audits).filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== "informative" && audit.scoreDisplayMode !== "manual");
    if (failing.length) console.log(`\n${name}: audits below 0.9: ${failing.map((audit) => `${audit.id} (${audit.displayValue ?? audit.score})`).join(", ")}`);
    // Accessibility and SEO failures name the elements, so they can be found without opening the report.
    for (const audit of failing.filter((item) => item.details?.items?.some((entry) => entry.node))) {
      console.log(`  ${audit.id}: ${audit.details.items.slice(0, 3).map((entry) => entry.node?.snippet ?? "").join("  ")}`);
    }
    const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"].map((id) => `${id.replace(/-/g, " ")} ${lhr.audits[id]?.displayValue ?? "?"}`);
    console.log(`${name}: ${metrics.join(", ")}`);
  }
  const belowTarget = results.some(({ scores }) => categories.some((category) => scores[category] < targets[category]));
  console.log(belowTarget ? "\nBelow target on at least one page." : "\nAll pages meet the targets.");
} finally {
  await chrome?.kill();
  stopServer();
  rmSync(dataDir, { recursive: true, force: true });
}
