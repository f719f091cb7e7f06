import { describe, expect, it } from "vitest";
import { InvalidStorageKeyError } from "@/server/integrations/storage/port";
import { getPrivateStorage, getStorage } from "@/server/integrations/storage/storage";
import { GET } from "./route";

// The sandbox storage under this run's DATA_DIR, as the shop serves it at /storage/...
const get = (key: string) => GET(new Request(`http://localhost/storage/${key}`), { params: Promise.resolve({ key: key.split("/") }) });

describe("the sandbox storage route", () => {
  it("serves product pictures to anyone", async () => {
    await getStorage().put("products/990001/1.webp", Buffer.from("RIFF....WEBP"), "image/webp");
    const response = await get("products/990001/1.webp");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
  });

  it("never serves a shipping label or any other private file, even one that exists", async () => {
    // Labels and exports live in the private storage, a folder of its own that this route cannot reach.
    await getPrivateStorage().put("labels/2026/BC-2026-990001-3SDEVC000001.pdf", Buffer.from("%PDF-1.7"), "application/pdf");
    await getPrivateStorage().put("exports/orders.csv", Buffer.from("number"), "text/csv; charset=utf-8");
    await expect(getStorage().put("labels/2026/BC-2026-990001-3SDEVC000001.pdf", Buffer.from("%PDF-1.7"), "application/pdf")).rejects.toThrow(InvalidStorageKeyError);
    for (const key of ["labels/2026/BC-2026-990001-3SDEVC000001.pdf", "exports/orders.csv", "products/../labels/2026/BC-2026-990001-3SDEVC000001.pdf"]) {
      const response = await get(key);
      expect(response.status, key).toBe(404);
      expect(await response.text()).toBe("Not found");
    }
  });
});
