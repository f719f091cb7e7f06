import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot } from "./browser";
import { withSignedInAdmin } from "./sign-in";

/**
 * Issue 28, the purchasing loop as staff work it: a restock request approved, bought into an open box from the restock
 * manager, the box shipped and exploded, and the request found under Received, no longer under "Approved - To buy".
 * On the way, the purchase forms name the field that is wrong (pieces 0, a cost "abc" or "1.234"), and so does the
 * product form for a price of -5.
 */

/** The note under a field (`FormField`) and whether the control is outlined as refused. */
async function refusalOf(page: Page, field: string) {
  const control = page.locator(`#field-${field}`);
  await expect.poll(() => control.getAttribute("aria-invalid")).toBe("true");
  return page.locator(`#field-${field}-note`).innerText();
}

/** Pictures at 1280 and 390 px of what is on screen, and how far `part` reaches past a phone's width (0 when it fits). */
async function atBothWidths(page: Page, name: string, part: string): Promise<number> {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  const past = await page.locator(part).evaluate((element) => Math.max(0, Math.ceil(element.getBoundingClientRect().right) - window.innerWidth, element.scrollWidth - element.clientWidth));
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  return past;
}

describe("restock loop", () => {
  let page: Page;
  let productName = "";
  let boxId = 0;

  withSignedInAdmin((opened) => (page = opened));

  it("approves a pending request and adds it to a new open box from the restock manager", async () => {
    await page.goto("/admin/products/restock-manager/pending");
    const first = page.locator("tbody tr").first();
    productName = (await first.locator("td a").first().innerText()).trim();
    await first.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.locator("tbody tr td a", { hasText: productName }).count()).toBe(0);

    await page.goto("/admin/products/restock-manager/approved");
    const row = page.locator("tbody tr", { hasText: productName });
    await row.getByRole("button", { name: "Add to a box" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "New box" }).click();
    await expect.poll(async () => Number(await dialog.locator("select#field-boxId").inputValue())).toBeGreaterThan(0);
    boxId = Number(await dialog.locator("select#field-boxId").inputValue());

    // Pieces 0 is refused beside the field, not as "fill out all required fields".
    // Typed and sent with Enter: leaving a number field would hold it to its range (SPEC section 5).
    await dialog.locator("#field-unitCost").fill("3.50");
    await dialog.locator("#field-quantity").fill("0");
    await dialog.locator("#field-quantity").press("Enter");
    expect(await refusalOf(page, "quantity")).toBe("At least one piece");
    expect(await atBothWidths(page, "restock-add-to-box-refused", '[role="dialog"]')).toBe(0);

    await dialog.locator("#field-quantity").fill("2");
    await dialog.getByRole("button", { name: "Add to the box" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => row.innerText()).toContain("+2 coming");
    await expect.poll(() => row.innerText()).toContain(productName);
  });

  it("names the wrong field on the box page's purchase form", async () => {
    await page.goto(`/admin/boxes/${boxId}`);
    // Words without digits: sizes ("4.5") are another part of issue 28.
    const words = productName.split(" ").filter((word) => !/[\d.]/.test(word)).slice(0, 3).join(" ");
    await page.getByPlaceholder("Search by name or #id").fill(words);
    await page.getByRole("option", { name: new RegExp(productName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).first().click();

    await page.locator("#field-unitCost").fill("abc");
    await page.locator("#field-quantity").fill("0");
    await page.locator("#field-quantity").press("Enter");
    expect(await refusalOf(page, "quantity")).toBe("At least one piece");
    expect(await refusalOf(page, "unitCost")).toBe("Enter an amount like 12.50");

    await page.locator("#field-unitCost").fill("1.234");
    await page.locator("#field-quantity").fill("20000");
    await page.locator("#field-quantity").press("Enter");
    expect(await refusalOf(page, "quantity")).toContain("At most 10,000 pieces in one purchase");
    expect(await refusalOf(page, "unitCost")).toBe("Write the amount without a thousands separator: 1234 or 1.23");
    expect(await atBothWidths(page, "box-purchase-refused", 'form[aria-label="Add a purchase"]')).toBe(0);
    // Nothing was added: the box holds the one purchase from the restock manager.
    expect(await page.getByTestId("purchase-row").count()).toBe(1);
  });

  it("ships and explodes the box, and the request shows under Received", async () => {
    await page.goto(`/admin/boxes/${boxId}`);
    await page.getByRole("button", { name: "Ship box" }).click();
    await page.locator("#ship-tracking").fill("LX555000222PH");
    await page.locator("#ship-date").fill("2031-03-14");
    await page.getByRole("button", { name: "Mark as shipped" }).click();
    await page.getByRole("button", { name: "Explode box" }).click();
    await page.getByRole("button", { name: "Book 2 pieces into stock" }).click();
    await page.getByText(`Box ${boxId} exploded`).first().waitFor();

    await page.goto("/admin/products/restock-manager/received");
    await page.locator("tbody tr", { hasText: productName }).waitFor();
    expect(await atBothWidths(page, "restock-received", "main")).toBe(0);
    await page.goto("/admin/products/restock-manager/approved");
    await page.getByText("Approved restock requests").waitFor();
    await page.locator("tbody tr").first().waitFor();
    await expect.poll(() => page.locator("tbody tr", { hasText: productName }).count()).toBe(0);
  });

  it("puts a price of -5 on the product form's price field with its reason", async () => {
    await page.goto("/admin/products/restock-manager/received");
    await page.locator("tbody tr td a", { hasText: productName }).first().click();
    await page.waitForURL(/\/admin\/products\/edit\?id=\d+/);
    const id = new URL(page.url()).searchParams.get("id");
    await page.goto(`/admin/products/edit?id=${id}`);
    await page.locator("#field-price").fill("-5");
    await page.locator("#field-price").press("Enter");
    expect(await refusalOf(page, "price")).toMatch(/amount in euros/);
  });
});
