import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import type { Carrier } from "@/lib/enums";
import { rawRows } from "@/server/db/raw-rows";
import { country, logbook, mailMessage, mailOutbox, order, orderDetail, product } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import type { CarrierPort } from "@/server/integrations/carriers/port";
import { createSandboxCarrier } from "@/server/integrations/carriers/sandbox";
import type { MailPort } from "@/server/integrations/mail/port";
import { createOutboxMail } from "@/server/integrations/mail/sandbox";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import { createSandboxPrivateStorage, createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { sandboxPrivateStorageRoot, sandboxStorageRoot } from "@/server/integrations/storage/storage";
import { logger } from "@/server/logger";
import { getOrderView } from "@/server/orders/view";
import { makeSession, makeUser } from "../../../tests/helpers/admin-fixtures";
import { startPaidOrders } from "../../../tests/helpers/paid-orders";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { createLabelJob, queueLabels } from "./jobs";
import { respondToLabelDownload } from "./label-download";
import { createLabel, readLabelPdf, voidLabel } from "./labels";
import type { FulfilmentPorts } from "./ports";
import { markShipped, pollTracking } from "./tracking";
import { deliverMail } from "@/server/messages/delivery";
import { mailDeliveryJob } from "@/server/messages/jobs";
import { runWaitingJobs } from "@/server/jobs/worker";

/**
 * Fulfilment on a real database, with orders placed and paid through checkout and the payment webhook, the sandbox
 * carrier (a real PDF label and tracking) and the sandbox storage: label, void, ship, the shipping e-mail and the
 * tracking poll, as staff and the customer would see them.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const staff = { userId: null, now };
let t: TestDatabase;
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;
let storage: PrivateStoragePort;
let ports: FulfilmentPorts;
let mail: MailPort;
/** Labels bought at the carrier in this file. */
let bought = 0;
/** The sandbox carriers' clock: a parcel's journey is played from its label's time. */
let clock = now;
const sandboxCarriers = { POSTNL: createSandboxCarrier("POSTNL", { now: () => clock }), UPS: createSandboxCarrier("UPS", { now: () => clock }) };

/** The sandbox carrier, counting the labels it sells. */
function countingCarrier(carrier: Carrier): CarrierPort {
  const port = sandboxCarriers[carrier];
  return {
    carrier: port.carrier,
    kind: port.kind,
    probe: port.probe,
    createLabel: async (request) => {
      bought += 1;
      return port.createLabel(request);
    },
    voidLabel: (shipmentId) => port.voidLabel(shipmentId),
    track: (trackingNumber) => port.track(trackingNumber),
    trackingUrl: (trackingNumber, receiver) => port.trackingUrl(trackingNumber, receiver),
  };
}

const watchOrder = (email: string) => paidOrders.placePaidOrder({ email, items: [{ name: `Seiko 5 for ${email}`, price: "120.00", itemType: "WRISTWATCH" }] });
const detailOf = async (orderId: number) => (await t.db.select().from(orderDetail).where(eq(orderDetail.orderId, orderId)))[0]!;
const statusOf = async (orderId: number) => (await t.db.select({ status: order.status }).from(order).where(eq(order.id, orderId)))[0]!.status;
const mailsTo = (email: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
const jobContext = () => ({ db: t.db, log: logger, jobId: "test", attempt: 1 });
const deliverQueuedMail = () => runWaitingJobs(t.database, [mailDeliveryJob], logger);
const shippingMessageOf = async (orderId: number) =>
  (await t.db.select().from(mailMessage).where(and(eq(mailMessage.orderId, orderId), eq(mailMessage.kind, "shipping-confirmation"))))[0];
/** The jobs of a kind waiting in the queue, with their data. */
const queued = (name: string) => rawRows<{ data: unknown }>(t.db, sql`select data from pgboss.job where name = ${name} and state < 'completed' order by created_on`);

beforeAll(async () => {
  t = await createTestDatabase();
  const root = path.join(os.tmpdir(), `fulfilment-${process.pid}`);
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(root, "seed") }), { products: 0, images: 0, now });
  paidOrders = await startPaidOrders(t.db, now);
  storage = createSandboxPrivateStorage({ root: path.join(root, "storage") });
  ports = { carrierFor: countingCarrier, storage };
  mail = createOutboxMail({ db: t.db, from: "shop@example.com", log: logger });
});

afterAll(async () => {
  await paidOrders?.close();
  await t?.dispose();
});

describe("creating a label", () => {
  it("buys a PostNL label for a watch going to Amsterdam, stores its PDF and makes the order PROCESSED", async () => {
    const paid = await watchOrder("label@example.com");
    const label = await createLabel(t.db, paid.orderId, staff, ports);

    expect([label.carrier, label.product]).toEqual(["POSTNL", "3085"]);
    expect(label.labelKey).toBe(`labels/2026/${paid.orderNumber}-${label.trackingNumber}.pdf`);
    expect(await statusOf(paid.orderId)).toBe("PROCESSED");
    const detail = await detailOf(paid.orderId);
    expect(detail).toMatchObject({ carrier: "POSTNL", carrierProduct: "3085", trackingNumber: label.trackingNumber, gcsLabelFilename: label.labelKey, labelCreatedAt: now, totalWeight: 450 });
    expect(detail.carrierShipmentId).toBeTruthy();

    const pdf = await readLabelPdf(t.db, storage, paid.orderNumber);
    expect(pdf?.filename).toBe(`${paid.orderNumber}-${label.trackingNumber}.pdf`);
    expect(pdf?.body.subarray(0, 5).toString()).toBe("%PDF-");

    const view = await getOrderView(t.db, paid.orderNumber);
    expect(view.shipping.trackingNumber).toBe(label.trackingNumber);
    expect(view.shipping.trackingUrl).toContain(label.trackingNumber);
    expect(view.shippedAt).toBeNull();

    const logged = await t.db.select({ description: logbook.description }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(paid.orderId))));
    expect(logged.map((entry) => entry.description)).toContainEqual(expect.stringContaining(`tracking ${label.trackingNumber}`));

    await expect(createLabel(t.db, paid.orderId, staff, ports)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("already has a label") });
  });

  it("buys the product the rules choose: a letterbox parcel at home, PostNL's EU parcel, UPS beyond the EU", async () => {
    const crown = (email: string) => ({ email, items: [{ name: `Crown for ${email}`, price: "25.00", itemType: "CROWN" as const }], shippingMethod: "UNTRACKED" as const });
    const letterbox = await paidOrders.placePaidOrder(crown("letterbox@example.com"));
    const germany = await paidOrders.placePaidOrder({ ...crown("berlin@example.com"), address: { street: "Unter den Linden", houseNumber: "5", postCode: "10117", city: "Berlin", countryCode: "DE" } });
    const usa = await paidOrders.placePaidOrder({
      email: "nyc@example.com",
      items: [{ name: "Seiko for New York", price: "40.00", itemType: "WRISTWATCH" }],
      address: { street: "Fifth Avenue", houseNumber: "1", postCode: "10001", city: "New York", countryCode: "US", stateCode: "NY" },
    });
    // A parcel leaving the EU is declared to customs, which need the piece's country of origin (customs.int.test.ts).
    const [japan] = await t.db.select({ id: country.id }).from(country).where(eq(country.code, "JP"));
    await t.db.update(product).set({ countryId: japan!.id }).where(eq(product.id, usa.productIds[0]!));
    const chosen = async (orderId: number) => {
      const label = await createLabel(t.db, orderId, staff, ports);
      return `${label.carrier} ${label.product}`;
    };

    expect(await chosen(letterbox.orderId)).toBe("POSTNL 2928");
    expect((await detailOf(letterbox.orderId)).totalWeight).toBe(120);
    expect(await chosen(germany.orderId)).toBe("POSTNL 4907");
    expect(await chosen(usa.orderId)).toBe("UPS 65");
  });

  it("buys one label when two requests for the same order come at once", async () => {
    const paid = await watchOrder("race@example.com");
    const before = bought;
    const results = await Promise.allSettled([createLabel(t.db, paid.orderId, staff, ports), createLabel(t.db, paid.orderId, staff, ports)]);

    expect(bought - before).toBe(1);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const [refused] = results.filter((result) => result.status === "rejected");
    expect(refused?.reason).toMatchObject({ code: "CONFLICT" });
    expect((await storage.list(`labels/2026/${paid.orderNumber}-`)).length).toBe(1);
  });

  it("refuses an order that is not paid and ready", async () => {
    const paid = await watchOrder("shipped-already@example.com");
    await createLabel(t.db, paid.orderId, staff, ports);
    await markShipped(t.db, [paid.orderId], staff);
    await expect(createLabel(t.db, paid.orderId, staff, ports)).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("downloading a label", () => {
  const download = (orderNumber: string, token: string | null, headers: Record<string, string> = {}) =>
    respondToLabelDownload(
      new Request(`http://127.0.0.1:3000/admin/orders/label/${orderNumber}`, { headers: { ...(token ? { cookie: `authjs.session-token=${token}` } : {}), ...headers } }),
      orderNumber,
      { db: t.db, storage },
    );

  it("gives staff the PDF, and everyone else the same 404 as an order without a label", async () => {
    const paid = await watchOrder("download@example.com");
    const unlabelled = await watchOrder("download-none@example.com");
    const label = await createLabel(t.db, paid.orderId, staff, ports);
    const staffMember = await makeUser(t.db, "ADMIN");
    const admin = await makeSession(t.db, staffMember.id);
    // Staff signed in by e-mail link whose second factor is not confirmed get no more than anyone else.
    const unconfirmed = await makeSession(t.db, staffMember.id, { secondFactor: false });
    const customer = await makeSession(t.db, (await makeUser(t.db, "USER")).id);

    const response = await download(paid.orderNumber, admin);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${paid.orderNumber}-${label.trackingNumber}.pdf"`);
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");

    for (const [orderNumber, token] of [[paid.orderNumber, customer], [paid.orderNumber, unconfirmed], [paid.orderNumber, null], [unlabelled.orderNumber, admin], ["BC-2026-999999", admin]] as const) {
      const refused = await download(orderNumber, token);
      expect(refused.status).toBe(404);
      expect(await refused.text()).toBe("Not found");
    }

    // A link on another site does not open it in a staff browser (SECURITY-REVIEW N-L1).
    const crossSite = await download(paid.orderNumber, admin, { "sec-fetch-site": "cross-site" });
    expect([crossSite.status, await crossSite.text()]).toEqual([403, "Documents open from the shop's own admin pages only: open this one from there."]);
  });
});

describe("label requests from staff", () => {
  it("queue one create-label job per order that can get a label, refuse the others with why, and the job buys it", async () => {
    const ready = await watchOrder("queued@example.com");
    const labelled = await watchOrder("queued-labelled@example.com");
    await createLabel(t.db, labelled.orderId, staff, ports);

    const answer = await queueLabels(t.db, [ready.orderId, labelled.orderId, ready.orderId], staff);
    expect(answer.queued).toEqual([{ orderId: ready.orderId, orderNumber: ready.orderNumber }]);
    expect(answer.refused).toEqual([{ orderId: labelled.orderId, orderNumber: labelled.orderNumber, reason: expect.stringContaining("already has a label") }]);
    // Asking again while the job waits queues nothing more.
    await queueLabels(t.db, [ready.orderId], staff);
    expect((await queued("create-label")).filter((job) => (job.data as { orderId: number }).orderId === ready.orderId)).toHaveLength(1);

    // The job as the worker runs it, with the shop's own sandbox carrier and storage.
    await createLabelJob.run({ orderId: ready.orderId, userId: null }, jobContext());
    expect(await statusOf(ready.orderId)).toBe("PROCESSED");
    expect((await detailOf(ready.orderId)).trackingNumber).toBeTruthy();
    // In the private storage's folder, never in the one /storage serves (SECURITY-REVIEW N-H1).
    const key = (await detailOf(ready.orderId)).gcsLabelFilename!;
    expect(existsSync(path.join(sandboxPrivateStorageRoot(env.DATA_DIR), ...key.split("/")))).toBe(true);
    expect(existsSync(path.join(sandboxStorageRoot(env.DATA_DIR), ...key.split("/")))).toBe(false);

    // A second run (a retry after a crash) is refused by the service and only logged: no second label, no failure.
    await createLabelJob.run({ orderId: ready.orderId, userId: null }, jobContext());
    const warnings = await t.db.select({ description: logbook.description }).from(logbook).where(and(eq(logbook.entityId, String(ready.orderId)), eq(logbook.logLevel, "WARNING")));
    expect(warnings.map((entry) => entry.description)).toContainEqual(expect.stringContaining("already has a label"));
  });
});

describe("voiding a label", () => {
  it("voids it at the carrier, clears it, removes the PDF and puts the order back to ready to ship; a new label can follow", async () => {
    const paid = await watchOrder("void@example.com");
    const label = await createLabel(t.db, paid.orderId, staff, ports);

    expect(await voidLabel(t.db, paid.orderId, staff, ports)).toEqual({ orderNumber: paid.orderNumber, status: "PAID_READY_TO_SHIP" });
    expect(await statusOf(paid.orderId)).toBe("PAID_READY_TO_SHIP");
    expect(await detailOf(paid.orderId)).toMatchObject({ carrier: null, trackingNumber: null, carrierShipmentId: null, labelCost: null, labelCreatedAt: null, gcsLabelFilename: null });
    expect(await storage.get(label.labelKey)).toBeNull();
    expect(await readLabelPdf(t.db, storage, paid.orderNumber)).toBeNull();

    clock = new Date(now.getTime() + 60_000);
    const again = await createLabel(t.db, paid.orderId, staff, ports);
    expect(again.trackingNumber).not.toBe(label.trackingNumber);
    expect(await statusOf(paid.orderId)).toBe("PROCESSED");
  });

  it("refuses once the parcel has shipped", async () => {
    clock = now;
    const paid = await watchOrder("void-shipped@example.com");
    await createLabel(t.db, paid.orderId, staff, ports);
    await markShipped(t.db, [paid.orderId], staff);
    await expect(voidLabel(t.db, paid.orderId, staff, ports)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("has shipped") });
  });
});

describe("shipping", () => {
  it("marks a labelled order SHIPPED and sends one shipping e-mail with the tracking link, however often the job runs", async () => {
    const email = "ship@example.com";
    const paid = await watchOrder(email);
    const label = await createLabel(t.db, paid.orderId, staff, ports);

    expect(await markShipped(t.db, [paid.orderId], staff)).toEqual({ shipped: [{ orderId: paid.orderId, orderNumber: paid.orderNumber }], refused: [] });
    expect(await statusOf(paid.orderId)).toBe("SHIPPED");
    expect((await detailOf(paid.orderId)).shippedAt).toEqual(now);
    // Written with the shipment, and not called sent before it went.
    expect(await shippingMessageOf(paid.orderId)).toMatchObject({ status: "QUEUED", to: email, idempotencyKey: `shipping-confirmation/${paid.orderNumber}` });
    expect((await detailOf(paid.orderId)).shippingEmailSent).toBe(false);

    await deliverQueuedMail();
    await deliverMail(t.db, (await shippingMessageOf(paid.orderId))!.id, mail);
    const shippingMails = (await mailsTo(email)).filter((message) => message.kind === "shipping-confirmation");
    expect(shippingMails).toHaveLength(1);
    const view = await getOrderView(t.db, paid.orderNumber);
    expect(shippingMails[0]!.subject).toBe(`Your order ${paid.orderNumber} is on its way`);
    expect(shippingMails[0]!.text).toContain(`Tracking number: ${label.trackingNumber}`);
    expect(shippingMails[0]!.text).toContain(view.shipping.trackingUrl!);
    expect(shippingMails[0]!.html).toContain(`href="${view.shipping.trackingUrl!.replace(/&/g, "&amp;")}"`);
    expect(shippingMails[0]!.text).toMatch(new RegExp(`/checkout/confirmation/${paid.orderNumber}\\?token=`));
    expect((await detailOf(paid.orderId)).shippingEmailSent).toBe(true);
  });

  it("refuses orders that are not packed with a label, and says why for each", async () => {
    const unlabelled = await watchOrder("no-label@example.com");
    const outcome = await markShipped(t.db, [unlabelled.orderId, 2_000_000], staff);
    expect(outcome.shipped).toEqual([]);
    expect(outcome.refused).toEqual([
      { orderId: unlabelled.orderId, orderNumber: unlabelled.orderNumber, reason: expect.stringContaining("only packed orders (PROCESSED)") },
      { orderId: 2_000_000, orderNumber: null, reason: "Order 2000000 does not exist." },
    ]);
    expect(await statusOf(unlabelled.orderId)).toBe("PAID_READY_TO_SHIP");
  });

  it("keeps the e-mail queued, with why, when sending fails, so that the next try sends it", async () => {
    const email = "mail-down@example.com";
    const paid = await watchOrder(email);
    await createLabel(t.db, paid.orderId, staff, ports);
    await markShipped(t.db, [paid.orderId], staff);
    const down: MailPort = { send: async () => Promise.reject(new Error("mail server down")), probe: async () => "unused" };
    const { id } = (await shippingMessageOf(paid.orderId))!;

    await expect(deliverMail(t.db, id, down)).rejects.toThrow("mail server down");
    expect(await shippingMessageOf(paid.orderId)).toMatchObject({ status: "QUEUED", attempts: 1, lastError: "mail server down" });
    expect((await detailOf(paid.orderId)).shippingEmailSent).toBe(false);
    expect(await deliverMail(t.db, id, mail)).toBe("sent");
    expect(await deliverMail(t.db, id, mail)).toBe("already sent");
    expect(await shippingMessageOf(paid.orderId)).toMatchObject({ status: "SENT", attempts: 2, lastError: null });
    expect((await detailOf(paid.orderId)).shippingEmailSent).toBe(true);
    expect((await mailsTo(email)).filter((message) => message.kind === "shipping-confirmation")).toHaveLength(1);
  });

  it("gives up after the last try, and tells staff", async () => {
    const email = "mail-gone@example.com";
    const paid = await watchOrder(email);
    await createLabel(t.db, paid.orderId, staff, ports);
    await markShipped(t.db, [paid.orderId], staff);
    const refused: MailPort = { send: async () => Promise.reject(new Error("550 mailbox unavailable")), probe: async () => "unused" };
    await expect(deliverMail(t.db, (await shippingMessageOf(paid.orderId))!.id, refused, { lastTry: true })).rejects.toThrow("550");
    expect(await shippingMessageOf(paid.orderId)).toMatchObject({ status: "FAILED", lastError: "550 mailbox unavailable" });
    expect((await detailOf(paid.orderId)).shippingEmailSent).toBe(false);
  });
});

describe("the tracking poll", () => {
  it("ships a PROCESSED order once the carrier has the parcel moving, and records its delivery", async () => {
    const paid = await watchOrder("tracked@example.com");
    clock = now;
    await createLabel(t.db, paid.orderId, staff, ports);
    const later = (hours: number) => (clock = new Date(now.getTime() + hours * 60 * 60_000));

    expect((await pollTracking(t.db, { now: later(0.1), ports })).shipped).not.toContain(paid.orderNumber);
    expect(await statusOf(paid.orderId)).toBe("PROCESSED");

    const first = await pollTracking(t.db, { now: later(26), ports });
    expect(first.shipped).toContain(paid.orderNumber);
    expect(await statusOf(paid.orderId)).toBe("SHIPPED");
    const shipped = await detailOf(paid.orderId);
    expect(shipped.shippedAt).toEqual(later(26));
    expect(await shippingMessageOf(paid.orderId)).toMatchObject({ status: "QUEUED" });
    expect(shipped.trackingStatus).toBeTruthy();

    const delivered = await pollTracking(t.db, { now: later(24 * 5), ports });
    expect(delivered.delivered).toContain(paid.orderNumber);
    expect((await detailOf(paid.orderId)).deliveredAt).toEqual(new Date(now.getTime() + 30 * 60 * 60_000));
    expect((await getOrderView(t.db, paid.orderNumber)).deliveredAt).not.toBeNull();

    // Delivered parcels are not asked about again.
    expect((await pollTracking(t.db, { now: later(24 * 6), ports })).shipped).not.toContain(paid.orderNumber);
  });
});
