import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logbook, orderDetail } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createSandboxCarrier } from "@/server/integrations/carriers/sandbox";
import { createGcsClient, createGcsPrivateStorage, createGcsPublicStorage } from "@/server/integrations/storage/live";
import { InvalidStorageKeyError, PrivateStorageCheckError, productImageKey, type PrivateStoragePort, type StoragePort } from "@/server/integrations/storage/port";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { listBucket } from "@/server/storage/service";
import { makeSession, makeUser } from "../../../tests/helpers/admin-fixtures";
import { gcsStandInServiceAccountKey, startGcsStandIn, type GcsStandIn } from "../../../tests/helpers/gcs-stand-in";
import { startPaidOrders } from "../../../tests/helpers/paid-orders";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { respondToLabelDownload } from "./label-download";
import { movePublicLabels } from "./label-move";
import { createLabel } from "./labels";
import type { FulfilmentPorts } from "./ports";

/**
 * SECURITY-REVIEW N-H1: with live storage, shipping labels (the customer's name, address and phone) go to the
 * private bucket, never to the public picture bucket (GCS_BUCKET), and reach staff only through the shop. Run against
 * a GCS stand-in that enforces what Cloud Storage enforces: anonymous requests to a private bucket are refused, a
 * public bucket is readable by everyone.
 */

const now = new Date("2026-03-04T09:00:00Z");
const staff = { userId: null, now };
const picturesBucket = "bc-pictures";
const privateBucket = "bc-private";
let t: TestDatabase;
let gcs: GcsStandIn;
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;
let pictures: StoragePort;
let documents: PrivateStoragePort;
let ports: FulfilmentPorts;

const objectsIn = (bucket: string) => gcs.buckets.get(bucket)!.objects;
const anonymous = (address: string) => fetch(address);
const jsonApiObject = (bucket: string, key: string) => `${gcs.url}/storage/v1/b/${bucket}/o/${encodeURIComponent(key)}`;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `label-storage-${process.pid}`) }), { products: 0, images: 0, now });
  paidOrders = await startPaidOrders(t.db, now);
  gcs = await startGcsStandIn({ [picturesBucket]: { public: true }, [privateBucket]: { public: false } });
  const client = createGcsClient({ serviceAccountKey: gcsStandInServiceAccountKey, apiEndpoint: gcs.url, authClient: gcs.authClient() });
  pictures = createGcsPublicStorage(client, picturesBucket);
  documents = createGcsPrivateStorage(client, privateBucket);
  ports = { carrierFor: (carrier) => createSandboxCarrier(carrier, { now: () => now }), storage: documents };
});

afterAll(async () => {
  await paidOrders?.close();
  await gcs?.close();
  await t?.dispose();
});

const labelledOrder = async (email: string) => {
  const paid = await paidOrders.placePaidOrder({ email, items: [{ name: `Seiko 5 for ${email}`, price: "120.00", itemType: "WRISTWATCH" }] });
  return { ...paid, label: await createLabel(t.db, paid.orderId, staff, ports) };
};

describe("a label with live storage", () => {
  it("is written to the private bucket as private, no-store, and nothing goes to GCS_BUCKET", async () => {
    const { label } = await labelledOrder("private-label@example.com");

    const stored = objectsIn(privateBucket).get(label.labelKey);
    expect(stored?.cacheControl).toBe("private, no-store");
    expect(stored?.contentType).toBe("application/pdf");
    expect(stored?.body.subarray(0, 5).toString()).toBe("%PDF-");
    expect([...objectsIn(picturesBucket).keys()]).toEqual([]);
    expect(gcs.requests.filter((request) => request.path.includes(`/b/${picturesBucket}/`) || request.path.startsWith(`/${picturesBucket}/`))).toEqual([]);
  });

  it("never gets a public address: the public storage refuses labels/ keys, and the private one has no publicUrl", async () => {
    const { label } = await labelledOrder("no-address@example.com");

    expect(() => pictures.publicUrl(label.labelKey)).toThrow(InvalidStorageKeyError);
    expect(() => pictures.publicUrl(label.labelKey)).toThrow("a private folder: its documents are never public");
    await expect(pictures.put(label.labelKey, Buffer.from("%PDF-1.7"), "application/pdf")).rejects.toThrow(InvalidStorageKeyError);
    expect([...objectsIn(picturesBucket).keys()]).toEqual([]);
    // @ts-expect-error the private storage is no public storage: a label cannot be handed where an address is made
    const asPublic: StoragePort = documents;
    expect("publicUrl" in asPublic).toBe(false);
  });

  it("cannot be listed or downloaded anonymously, while staff download it through the shop", async () => {
    const { orderNumber, label } = await labelledOrder("anonymous-read@example.com");
    const admin = await makeSession(t.db, (await makeUser(t.db, "ADMIN")).id);
    const download = (token: string | null) =>
      respondToLabelDownload(new Request(`http://127.0.0.1:3000/admin/orders/label/${orderNumber}`, { headers: token ? { cookie: `authjs.session-token=${token}` } : {} }), orderNumber, {
        db: t.db,
        storage: documents,
      });

    const listing = await anonymous(`${gcs.url}/storage/v1/b/${privateBucket}/o?prefix=labels/`);
    expect(listing.status).toBe(401);
    expect(((await listing.json()) as { error: { message: string } }).error.message).toContain("Anonymous caller does not have storage.objects.list access");
    expect((await anonymous(`${jsonApiObject(privateBucket, label.labelKey)}?alt=media`)).status).toBe(401);
    expect((await anonymous(`${gcs.url}/${privateBucket}/${label.labelKey}`)).status).toBe(403);

    const staffDownload = await download(admin);
    expect(staffDownload.status).toBe(200);
    expect(Buffer.from(await staffDownload.arrayBuffer()).equals(objectsIn(privateBucket).get(label.labelKey)!.body)).toBe(true);
    expect((await download(null)).status).toBe(404);

    // The stand-in is no wall of 401s: a product picture in the public bucket loads for anyone at its address.
    await pictures.put(productImageKey(4242), Buffer.from("RIFF....WEBP"), "image/webp");
    const picture = await anonymous(pictures.publicUrl(productImageKey(4242)));
    expect(picture.status).toBe(200);
    expect(picture.headers.get("cache-control")).toBe("public, max-age=300");
  });
});

describe("the start-up check of the private bucket", () => {
  it("passes for a bucket that refuses anonymous requests, and leaves its probe there only", async () => {
    await documents.assertPrivate();
    expect(objectsIn(privateBucket).get("access-check/anonymous-read-probe.txt")?.cacheControl).toBe("private, no-store");
  });

  it("refuses a private bucket that anyone can read, saying what to do", async () => {
    gcs.buckets.get(privateBucket)!.public = true;
    try {
      const refusal = documents.assertPrivate();
      await expect(refusal).rejects.toThrow(PrivateStorageCheckError);
      await expect(documents.assertPrivate()).rejects.toThrow(
        `GCS_PRIVATE_BUCKET "${privateBucket}" is readable by anyone: an anonymous request could list the bucket's objects (HTTP 200)`,
      );
    } finally {
      gcs.buckets.get(privateBucket)!.public = false;
    }
    // The picture bucket given as the private one is refused the same way.
    const client = createGcsClient({ serviceAccountKey: gcsStandInServiceAccountKey, apiEndpoint: gcs.url, authClient: gcs.authClient() });
    await expect(createGcsPrivateStorage(client, picturesBucket).assertPrivate()).rejects.toThrow(`GCS_PRIVATE_BUCKET "${picturesBucket}" is readable by anyone`);
    objectsIn(picturesBucket).delete("access-check/anonymous-read-probe.txt");
  });
});

describe("labels an older version left in the public bucket", () => {
  it("are moved to the private bucket under the same key, so staff still download them and nobody else can", async () => {
    // As the old code stored it: the PDF in GCS_BUCKET, its key on the order.
    const paid = await paidOrders.placePaidOrder({ email: "old-label@example.com", items: [{ name: "Old label watch", price: "90.00", itemType: "WRISTWATCH" }] });
    const key = `labels/2026/${paid.orderNumber}-3SSBOX0MX0JPG1YJJU.pdf`;
    const pdf = Buffer.from("%PDF-1.7 the old label");
    objectsIn(picturesBucket).set(key, { body: pdf, contentType: "application/pdf", cacheControl: "public, max-age=300", updated: now, generation: 1 });
    await t.db.update(orderDetail).set({ gcsLabelFilename: key, trackingNumber: "3SSBOX0MX0JPG1YJJU" }).where(eq(orderDetail.orderId, paid.orderId));
    expect((await anonymous(`${gcs.url}/${picturesBucket}/${key}`)).status).toBe(200);
    // Meanwhile the bucket browser neither shows it nor gives it an address.
    expect((await listBucket(pictures, "labels/2026/")).files).toEqual([]);

    expect(await movePublicLabels(t.db, { from: pictures, to: documents })).toEqual([key]);

    expect(objectsIn(picturesBucket).has(key)).toBe(false);
    expect((await anonymous(`${gcs.url}/${picturesBucket}/${key}`)).status).toBe(404);
    expect(objectsIn(privateBucket).get(key)).toMatchObject({ body: pdf, cacheControl: "private, no-store" });
    const admin = await makeSession(t.db, (await makeUser(t.db, "ADMIN")).id);
    const response = await respondToLabelDownload(new Request(`http://127.0.0.1:3000/admin/orders/label/${paid.orderNumber}`, { headers: { cookie: `authjs.session-token=${admin}` } }), paid.orderNumber, {
      db: t.db,
      storage: documents,
    });
    expect(Buffer.from(await response.arrayBuffer()).equals(pdf)).toBe(true);
    const logged = await t.db.select({ description: logbook.description }).from(logbook).where(and(eq(logbook.eventType, "SECURITY"), eq(logbook.logLevel, "WARNING")));
    expect(logged.map((entry) => entry.description)).toContain("Moved 1 shipping label from the public bucket to the private storage; until now anyone could download them");

    // A second run (the next start) finds nothing to move.
    expect(await movePublicLabels(t.db, { from: pictures, to: documents })).toEqual([]);
  });
});
