import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { freePort } from "../helpers/free-port";

/**
 * The front door as a client meets it (scripts/serve.mjs, what `npm start` runs): a request whose target is not a
 * path is answered 400, not redirected to the host it names (SECURITY-REVIEW N-L8); and a second server on the
 * running shop's data folder, refused its database, exits instead of listening and answering 500 (N-L7).
 */

const baseUrl = inject("baseUrl");

/** One raw HTTP/1.1 request on its own connection, and the status line of the answer. */
function rawStatusLine(request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n")) {
        socket.destroy();
        resolve(answer.split("\r\n")[0]!);
      }
    });
    socket.on("error", reject);
    socket.setTimeout(10_000, () => reject(new Error("no answer")));
  });
}


const stragglers: ChildProcess[] = [];
afterEach(() => {
  for (const child of stragglers.splice(0)) child.kill("SIGKILL");
});

describe("the front door", () => {
  it("answers an absolute request target with 400 instead of a redirect to that host", async () => {
    expect(await rawStatusLine("GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawStatusLine("GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")).toBe("HTTP/1.1 200 OK");
  });

  it("stops a second server on the running shop's data folder, which never listens", async () => {
    const port = await freePort();
    const second = spawn(process.execPath, [path.join(process.cwd(), "scripts", "serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: inject("serverDataDir"), ENVIRONMENT: "development", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    stragglers.push(second);
    let output = "";
    second.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    second.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain("The shop could not start");
    expect(output).toContain("database folder in use");
    expect(output).not.toContain("Shop listening");
  }, 90_000);
});
