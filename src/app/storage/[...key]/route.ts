import { storageKeyProblem } from "@/server/integrations/storage/port";
import { getStorage } from "@/server/integrations/storage/storage";

/**
 * The folders anyone may load from: the product pictures (`storageImageUrl`) and nothing else. Shipping labels and
 * other private files are in the private storage (`getPrivateStorage`), a folder of its own this route cannot reach;
 * still, this is a list of what is public, never of what is not.
 */
const publicPrefixes = ["products/"];

// Serves the public part of the sandbox storage folder, standing in for the public bucket URL. Images can be
// replaced under the same key, so they are cached only briefly.
export async function GET(_request: Request, context: { params: Promise<{ key: string[] }> }): Promise<Response> {
  const storage = getStorage();
  if (storage.kind !== "sandbox") return notFound();
  const { key: segments } = await context.params;
  const key = segments.join("/");
  if (storageKeyProblem(key) || !publicPrefixes.some((prefix) => key.startsWith(prefix))) return notFound();
  const stored = await storage.get(key);
  if (!stored) return notFound();
  return new Response(new Uint8Array(stored.body), {
    headers: {
      "Content-Type": stored.contentType,
      "Content-Length": String(stored.body.length),
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
      // Stored files are data, never a page: an uploaded SVG or HTML file must not run script on the shop's origin.
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    },
  });
}

function notFound(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
