import http from "node:http";
import type { AddressInfo } from "node:net";

/** The shop's webhook endpoint on a local port: `url` is its origin, for a sandbox provider to call back. */
export type WebhookReceiver = { url: string; close: () => Promise<void> };

/**
 * Starts the endpoint as the route handler runs it: each delivery goes to `receive` with its full address and body,
 * and is answered 200 when `receive` takes it and 401 when it throws.
 */
export async function startWebhookReceiver(receive: (url: string, body: string) => Promise<unknown>): Promise<WebhookReceiver> {
  let origin = "";
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      await receive(`${origin}${req.url}`, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200).end();
    } catch {
      res.writeHead(401).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
