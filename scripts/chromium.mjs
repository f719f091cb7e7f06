// Where the end-to-end journeys (tests/e2e/browser.ts) and the Lighthouse bench find Chromium, so that a fresh clone
// needs no system browser: CHROMIUM_PATH, then a system Chromium or Chrome, then the headless Chromium that
// @sparticuz/chromium ships inside its npm package (Linux x64 only).
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** Without the background-networking flags Chromium keeps dialling out, which this machine's closed network refuses. */
export const quietChromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const systemBrowsers = ["chromium", "chromium-browser", "google-chrome"];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name) {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter(Boolean)
    .map((folder) => path.join(folder, name))
    .find(isExecutable);
}

/** The path of the Chromium to drive; throws with what to install when there is none. */
export async function findChromium() {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    // A wrong setting should say so, not quietly fall through to another browser.
    if (!isExecutable(chosen)) throw new Error(`CHROMIUM_PATH is ${chosen}, which is not an executable file.`);
    return chosen;
  }
  // /usr/bin/chromium first even when PATH leaves /usr/bin out, as some CI environments do.
  const system = isExecutable("/usr/bin/chromium") ? "/usr/bin/chromium" : systemBrowsers.map(onPath).find(Boolean);
  if (system) return system;
  if (process.platform === "linux" && process.arch === "x64") {
    // Imported only here: on load the package adjusts LD_LIBRARY_PATH and HOME when it believes it runs on AWS Lambda.
    const { default: packaged } = await import("@sparticuz/chromium");
    // Unpacks once into the temporary folder (/tmp/chromium) and reuses it afterwards. Its binary needs the NSS
    // libraries (Debian: libnss3), which Debian and Ubuntu images normally have.
    return packaged.executablePath();
  }
  throw new Error(
    `No Chromium found, and @sparticuz/chromium ships one for Linux x64 only (this is ${process.platform} ${process.arch}). ` +
      "Install Chromium (on Debian: `apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome executable.",
  );
}
