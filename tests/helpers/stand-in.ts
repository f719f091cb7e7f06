import { beforeEach } from "vitest";
import { perFile } from "./per-file";
import type { ProviderServer } from "./provider-server";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

/**
 * The file's stand-in for a provider: started before its first test, closed after its last, and its log of requests
 * emptied before each test, so that a test sees only the requests it caused.
 */
export function standInForFile<T extends ProviderServer>(start: () => Promise<T>): T {
  const server = perFile(start, (started) => started.close());
  beforeEach(() => {
    server.requests.length = 0;
  });
  return server;
}

/** The shop's webhook endpoint for the file's tests (see `startWebhookReceiver`): listening from the first test to the last. */
export function webhookReceiverForFile(receive: (url: string, body: string) => Promise<unknown>): WebhookReceiver {
  return perFile(() => startWebhookReceiver(receive), (receiver) => receiver.close());
}
