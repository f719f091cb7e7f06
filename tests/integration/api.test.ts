import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/root";
import { createTRPCContext } from "@/server/trpc-context";
import { makeManufacturer, makeProduct } from "../helpers/factories";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// The typed API over HTTP, as a browser calls it: GET with the superjson-encoded input in the query string.

let testDb: TestDatabase;

function call(path: string, input: unknown): Promise<Response> {
  const url = `http://localhost/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  const request = new Request(url);
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createTRPCContext({ headers: request.headers, requestId: "test", db: testDb.db }),
  });
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const omega = await makeManufacturer(testDb.db, "Omega");
  await makeProduct(testDb.db, { name: "Omega crown", price: "45.50", manufacturer: omega });
  await makeProduct(testDb.db, { name: "Omega crystal", price: "19.95", manufacturer: omega });
});

afterAll(async () => {
  await testDb?.dispose();
});

describe("GET /api/trpc/shared.product.getMany", () => {
  it("answers product cards with prices as superjson decimals and the total count", async () => {
    const response = await call("shared.product.getMany", { search: "omega", orderBy: { relevance: "desc" }, page: 1 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      result: { data: { json: { products: { name: string; price: string }[]; pagination: { totalItems: number } }; meta: { values: Record<string, unknown> } } };
    };
    const { json, meta } = body.result.data;
    expect(json.pagination.totalItems).toBe(2);
    expect(json.products.map((p) => p.price).sort()).toEqual(["19.95", "45.5"]);
    expect(meta.values["products.0.price"]).toEqual([["custom", "decimal.js"]]);
  });

  it("answers invalid input with BAD_REQUEST and the field errors", async () => {
    const response = await call("shared.product.getMany", { page: 0 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { json: { data: { code: string; zodError: { fieldErrors: Record<string, string[]> } } } } };
    expect(body.error.json.data.code).toBe("BAD_REQUEST");
    expect(body.error.json.data.zodError.fieldErrors.page?.length).toBeGreaterThan(0);
  });
});
