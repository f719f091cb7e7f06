import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot } from "./browser";
import { withSignedInAdmin } from "./sign-in";

/**
 * Issue 29's owner's reports, as the owner opens them from the sidebar: each report loads, and its CSV downloads with
 * the figures the page shows (the accountant gets what the owner saw).
 */

/** Clicks the report's CSV button and reads the file it downloads, as lines without the byte order mark. */
async function downloadCsv(page: Page): Promise<{ filename: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSV" }).click()]);
  const file = await download.path();
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  return { filename: download.suggestedFilename(), lines: text.split("\r\n").filter(Boolean) };
}

/** Waits for the report's placeholders to give way to what it loaded. */
async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll(".animate-pulse").length === 0, undefined, { timeout: 15_000 });
}

const currentMonth = () => new Date().toISOString().slice(0, 7);

describe("the owner's reports", () => {
  let page: Page;
  withSignedInAdmin((opened) => (page = opened));

  it("opens from the sidebar on sales and margin, whose CSV has every month and channel the page reads from", async () => {
    await page.goto("/admin/dashboard");
    const sidebar = page.getByRole("navigation", { name: "Admin" });
    const salesLink = sidebar.getByRole("link", { name: "Sales & margin" });
    if (!(await salesLink.isVisible())) await sidebar.getByRole("button", { name: "Reports" }).click();
    await salesLink.click();
    await page.waitForURL("**/admin/reports/sales");
    await page.getByRole("heading", { name: "Sales and margin by month" }).waitFor();
    await loaded(page);
    await page.getByTestId("sales-chart").waitFor();

    const twelve = await downloadCsv(page);
    expect(twelve.filename).toMatch(/^sales-by-month-12-months-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(twelve.lines[0]).toBe("month,channel,orders,pieces,revenue,shipping,purchase_cost,purchase_cost_php,unknown_cost_pieces,provider_fees,label_cost,refunds,margin");
    // 12 months × web shop, eBay and manual, the current month last (months are the shop's; a day either side of a
    // month's turn is the browser's and the shop's alike here).
    expect(twelve.lines).toHaveLength(1 + 36);
    expect(twelve.lines.at(-1)!.slice(0, 7)).toBe(currentMonth());
    // The table shows the months and channels with an order or a refund: those of the file.
    const withSales = twelve.lines.slice(1).filter((line) => {
      const cells = line.split(",");
      return cells[2] !== "0" || cells[11] !== "0.00";
    });
    expect(await page.getByTestId("sales-table").locator("tbody tr[data-testid]").count()).toBe(withSales.length);

    await page.getByRole("button", { name: "24 months" }).click();
    await expect.poll(() => page.getByRole("link", { name: "CSV" }).getAttribute("href")).toContain("months=24");
    expect((await downloadCsv(page)).lines).toHaveLength(1 + 72);
    await screenshot(page, "admin-reports-sales");
  });

  it("values the stock at cost, the same in the CSV as on the page", async () => {
    await page.goto("/admin/reports/stock-value");
    await page.getByRole("heading", { name: "Stock at cost" }).waitFor();
    await loaded(page);
    const { lines } = await downloadCsv(page);
    expect(lines[0]).toBe("group,name,pieces,value_eur,value_php,unknown_cost_pieces");
    const total = lines[1]!.split(",");
    expect(total.slice(0, 2)).toEqual(["total", "All stock"]);
    expect(total[2]).toMatch(/^\d+$/);
    const shown = await page.getByTestId("stock-value-total").innerText();
    expect(shown.replaceAll(",", "")).toContain(`€${total[3]}`);
    expect(lines.filter((line) => line.startsWith("category,"))).toHaveLength(await page.getByTestId("stock-value-categories").locator("tbody tr").filter({ hasNot: page.getByText("Nothing in stock.") }).count());
    await screenshot(page, "admin-reports-stock-value");
  });

  it("ages the stock in buckets and lists every lot in the CSV, oldest first", async () => {
    await page.goto("/admin/reports/aged-stock");
    await page.getByRole("heading", { name: "Money tied up by age" }).waitFor();
    await loaded(page);
    expect(await page.getByTestId("aged-buckets").locator("tbody tr").allInnerTexts()).toEqual([
      expect.stringContaining("0–30 days"),
      expect.stringContaining("31–90 days"),
      expect.stringContaining("91–180 days"),
      expect.stringContaining("181–365 days"),
      expect.stringContaining("Over a year"),
    ]);
    const { lines } = await downloadCsv(page);
    expect(lines[0]).toBe("lot,product_id,product,box,booked_at,days_in_stock,pieces_left,unit_cost_eur,value_eur");
    const summary = await page.getByText(/lots with pieces left/).innerText();
    expect(Number(summary.replace(/\D/g, ""))).toBe(lines.length - 1);
    const days = lines.slice(1).map((line) => Number(line.split(",").at(-4)));
    expect(days).toEqual([...days].sort((a, b) => b - a));
    await screenshot(page, "admin-reports-aged-stock");
  });

  it("shows the sell-through per category and per box, as the CSV does", async () => {
    await page.goto("/admin/reports/sell-through");
    await page.getByRole("heading", { name: "Sell-through by category" }).waitFor();
    await loaded(page);
    const { lines } = await downloadCsv(page);
    expect(lines[0]).toBe("group,name,received,sold,written_off,left,sell_through");
    // A long list shows its first rows until asked for all.
    for (const more of await page.getByRole("button", { name: /^Show all/ }).all()) await more.click();
    const rows = async (testId: string) => page.getByTestId(testId).locator("tbody tr").filter({ hasNot: page.getByText("No pieces received yet.") }).count();
    expect(lines.filter((line) => line.startsWith("category,"))).toHaveLength(await rows("sell-through-categories"));
    expect(lines.filter((line) => line.startsWith("box,"))).toHaveLength(await rows("sell-through-boxes"));
    for (const line of lines.slice(1)) {
      const [received, sold, writtenOff, left] = line.split(",").slice(-5, -1).map(Number) as [number, number, number, number];
      expect(sold + writtenOff + left).toBe(received);
    }
    await screenshot(page, "admin-reports-sell-through");
  });

  it("ranks the best and worst sellers over a month, a quarter or a year chosen, and downloads them for that period", async () => {
    await page.goto("/admin/reports/sellers");
    await page.getByRole("heading", { name: "Best sellers" }).waitFor();
    await loaded(page);
    // It opens on the current quarter; a year is a click on Year and a choice in the list (the demo's orders are of
    // the last six months: the year they mostly fall in).
    expect(await page.getByLabel("Quarter").inputValue()).toMatch(/^\d{4}-Q[1-4]$/);
    await page.getByRole("button", { name: "Year" }).click();
    const year = String(new Date(Date.now() - 90 * 86_400_000).getFullYear());
    await page.getByLabel("Year").selectOption(year);
    await expect.poll(() => page.getByRole("link", { name: "CSV" }).getAttribute("href")).toContain(`period=${year}`);
    await loaded(page);
    const { filename, lines } = await downloadCsv(page);
    expect(filename).toBe(`sellers-${year}.csv`);
    expect(lines[0]).toBe("list,rank,product_id,product,orders,pieces,revenue,purchase_cost,unknown_cost_pieces,refunds,margin");
    const best = lines.filter((line) => line.startsWith("best,"));
    expect(best.length).toBeGreaterThan(0);
    const margins = best.map((line) => Number(line.split(",").at(-1)));
    expect(margins).toEqual([...margins].sort((a, b) => b - a));
    // The page shows the file's best seller first.
    await expect.poll(() => page.getByTestId("best-sellers").locator("tbody tr a").first().getAttribute("href")).toBe(`/admin/products/edit?id=${best[0]!.split(",")[2]}`);
    await page.getByRole("button", { name: "Month" }).click();
    expect(await page.getByLabel("Month").inputValue()).toBe(currentMonth());
    await page.getByRole("button", { name: "Quarter" }).click();
    await loaded(page);
    await screenshot(page, "admin-reports-sellers");
    // On a phone: the choices and the tables fit the width, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await loaded(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, "admin-reports-sellers-390");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
