import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for an outside provider's HTTP API (ARCHITECTURE section 4): Node's http server on 127.0.0.1 and
 * a random port, answering with whatever the test's handler returns, and keeping every request it received so a
 * test can check what the adapter sent. The handler is where a test writes the provider's documented shapes.
 */

export type ReceivedRequest = {
  method: string;
  /** The path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
};

export type ProviderAnswer = { status: number; body?: unknown; headers?: Record<string, string> };

export type ProviderHandler = (request: ReceivedRequest) => ProviderAnswer | Promise<ProviderAnswer>;

export type ProviderServer = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ReceivedRequest[];
  close: () => Promise<void>;
};

export async function startProviderServer(handler: ProviderHandler, contentType = "application/json"): Promise<ProviderServer> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const request: ReceivedRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body, json };
    requests.push(request);
    try {
      const answer = await handler(request);
      res.writeHead(answer.status, { "content-type": contentType, ...answer.headers });
      res.end(answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`The test's provider handler failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
