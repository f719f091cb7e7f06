// RELIABILITY-REVIEW D1 and D5: a paid order's confirmation e-mail when the server is killed (SIGKILL), and when it
// is stopped as a deploy stops it (SIGTERM), while the e-mail is being sent: the mail service (a local Resend
// stand-in that keeps idempotency keys as Resend does) has taken the e-mail and keeps its answer back. Each customer
// must get exactly one e-mail, and the order page must say "Sent" only once it went.
import { Client } from "pg";
import { resendApiKey, startResendStandIn } from "../../tests/helpers/resend-stand-in";
import { guestOrder, placeOrder } from "../guest-orders";
import { delay, withBenchShop, type BenchShop } from "../shop-server";
import { seconds, type FaultScenario } from "./scenario";

/** A job whose process died is retried once its time (3 min for an e-mail) has run out: the kill waits that long. */
const deliveryWaitMs = 6 * 60_000;

async function query<T>(shop: BenchShop, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: shop.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Places a guest order and pays it on the sandbox, as the payment page and Mollie's webhook would. */
async function paidOrder(shop: BenchShop, buyer: number): Promise<string> {
  const [product] = await query<{ id: number }>(shop, "select id from product where ws_status = 'ONLINE' and stock > 0 order by id limit 1");
  const placed = await placeOrder({ baseUrl: shop.baseUrl, clientAddress: `10.89.0.${buyer}` }, guestOrder(buyer, 1, [product!.id]));
  if (placed.kind !== "placed") throw new Error(`the order was not placed: ${JSON.stringify(placed)}`);
  const [payment] = await query<{ id: string; webhook_url: string }>(
    shop,
    `update sandbox_payment set status = 'paid', completed_at = now()
     where order_id = (select id from "order" where order_number = $1) returning id, webhook_url`,
    [placed.orderNumber],
  );
  const answer = await fetch(payment!.webhook_url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ id: payment!.id }) });
  if (answer.status !== 200) throw new Error(`the payment webhook answered ${answer.status}`);
  return placed.orderNumber;
}

async function waitFor(check: () => Promise<boolean> | boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await delay(250);
  }
  return false;
}

/** What the shop says of the order's confirmation e-mail: the message's state and the order page's flag. */
async function confirmationOf(shop: BenchShop, orderNumber: string) {
  const [row] = await query<{ status: string | null; flagged: boolean }>(
    shop,
    `select m.status, d.order_email_sent as flagged from "order" o join order_detail d on d.order_id = o.id
     left join mail_message m on m.order_id = o.id and m.kind = 'order-confirmation' where o.order_number = $1`,
    [orderNumber],
  );
  return row!;
}

export const mailSendWindow: FaultScenario = {
  name: "mail-send-window",
  description: "the server killed (SIGKILL), then stopped (SIGTERM), while a paid order's confirmation e-mail is being sent",
  async run() {
    const resend = await startResendStandIn();
    const figures: Record<string, string | number> = {};
    let pass = false;
    const requestsFor = (orderNumber: string) => resend.requests.filter((request) => request.headers["idempotency-key"] === `order-confirmation/${orderNumber}`).length;
    const deliveredTo = (buyer: number) => resend.sent.filter((email) => email.to[0]?.startsWith(`buyer${buyer}.`)).length;
    try {
      await withBenchShop("faults_mail", { MAIL_SERVICE: "resend", RESEND_API_KEY: resendApiKey, RESEND_API_URL: resend.url }, async (shop) => {
        await shop.start();

        // Killed in the window.
        resend.holdAnswers(true);
        const killedOrder = await paidOrder(shop, 1);
        if (!(await waitFor(() => requestsFor(killedOrder) === 1, 30_000))) throw new Error("the confirmation e-mail never reached the mail service");
        await shop.kill();
        const afterKill = await confirmationOf(shop, killedOrder);
        figures["after the kill: message, order page"] = `${afterKill.status}, ${afterKill.flagged ? "Sent" : "not sent"}`;
        resend.holdAnswers(false);
        const restartedAt = performance.now();
        await shop.start();
        const deliveredAfterKill = await waitFor(async () => (await confirmationOf(shop, killedOrder)).status === "SENT", deliveryWaitMs);
        figures["kill: sent again after the restart"] = deliveredAfterKill ? `in ${seconds(performance.now() - restartedAt)}` : `not within ${seconds(deliveryWaitMs)}`;
        figures["kill: requests under the key, e-mails delivered"] = `${requestsFor(killedOrder)}, ${deliveredTo(1)}`;
        const killedFinal = await confirmationOf(shop, killedOrder);

        // Stopped in the window.
        resend.holdAnswers(true);
        const stoppedOrder = await paidOrder(shop, 2);
        if (!(await waitFor(() => requestsFor(stoppedOrder) === 1, 30_000))) throw new Error("the second confirmation e-mail never reached the mail service");
        setTimeout(() => resend.holdAnswers(false), 1_500);
        const stopStarted = performance.now();
        const exitCode = await shop.stop();
        figures["stop: the server exited"] = `code ${exitCode} after ${seconds(performance.now() - stopStarted)}`;
        await shop.start();
        const stoppedFinal = await confirmationOf(shop, stoppedOrder);
        figures["stop: message, order page"] = `${stoppedFinal.status}, ${stoppedFinal.flagged ? "Sent" : "not sent"}`;
        figures["stop: requests under the key, e-mails delivered"] = `${requestsFor(stoppedOrder)}, ${deliveredTo(2)}`;

        pass =
          afterKill.status === "QUEUED" &&
          !afterKill.flagged &&
          deliveredAfterKill &&
          killedFinal.flagged &&
          deliveredTo(1) === 1 &&
          exitCode === 0 &&
          stoppedFinal.status === "SENT" &&
          stoppedFinal.flagged &&
          requestsFor(stoppedOrder) === 1 &&
          deliveredTo(2) === 1;
        return pass;
      });
      return { pass, figures };
    } finally {
      await resend.close();
    }
  },
};
