// Writes docs/data-model.md, the Mermaid ER diagram of the Drizzle schema, so the picture never drifts from the
// code. Run with `npm run docs:data-model` after changing a schema file; a test checks the file is current.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { is } from "drizzle-orm";
import { PgTable as PgTableClass } from "drizzle-orm/pg-core";
import * as schema from "../src/server/db/schema";

type Table = ReturnType<typeof getTableConfig>;

const areas: Record<string, string[]> = {
  Auth: ["user", "account", "session", "verification_token", "address_book", "passkey", "totp_factor", "recovery_code", "webauthn_challenge"],
  Catalogue: ["product", "product_description", "product_category", "product_manufacturer", "product_select_options", "product_template", "product_restock_manager", "search_term"],
  Stock: ["box", "purchase_record", "stock_record", "inventory_correction", "stock_lot", "stock_record_cost", "stock_holding", "stock_holding_change"],
  Sales: ["sales_day", "sales_day_category", "sales_month_product", "sales_period_product", "order_sales_share"],
  Orders: ["order", "order_address", "order_detail", "order_item", "payment_detail", "refund", "order_discount", "order_placer", "cart_item", "invoice_counter"],
  Shipping: ["country", "region", "shipping_surcharge", "shipping_calendar", "shop_closing_day"],
  Discounts: ["discount"],
  Logbook: ["logbook", "logbook_read_by_user", "admin_notification"],
  Config: ["config_params"],
  Payments: ["sandbox_payment", "sandbox_refund", "webhook_event"],
  Messaging: ["mail_outbox", "mail_message", "rate_limit"],
  Marketplace: ["marketplace_offer", "marketplace_sync", "marketplace_bulk_run", "marketplace_request", "marketplace_category_tree", "marketplace_category_rules", "sandbox_marketplace_item", "sandbox_marketplace_offer", "sandbox_marketplace_order", "sandbox_marketplace_request"],
  Jobs: ["job_worker", "job_worker_try"],
};

function entityName(table: Table) {
  return table.name.toUpperCase();
}

export function renderDataModel(): string {
  const tables = (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTableClass))
    .map((table) => getTableConfig(table))
    .sort((a, b) => a.name.localeCompare(b.name));
  const byName = new Map(tables.map((t) => [t.name, t]));

  const lines: string[] = ["erDiagram"];
  for (const table of tables) {
    const foreign = new Set(table.foreignKeys.flatMap((fk) => fk.reference().columns.map((c) => c.name)));
    const primary = new Set([...table.columns.filter((c) => c.primary).map((c) => c.name), ...table.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name))]);
    lines.push(`  ${entityName(table)} {`);
    for (const column of table.columns) {
      const type = column.getSQLType().replace(/\(.*\)/, "").replace(/\s+/g, "_");
      const keys = [primary.has(column.name) ? "PK" : null, foreign.has(column.name) ? "FK" : null].filter(Boolean).join(",");
      lines.push(`    ${type} ${column.name}${keys ? ` ${keys}` : ""}`);
    }
    lines.push("  }");
  }
  for (const table of tables) {
    const foreignKeys = [...table.foreignKeys].sort((a, b) => a.getName().localeCompare(b.getName()));
    for (const fk of foreignKeys) {
      const reference = fk.reference();
      const target = getTableConfig(reference.foreignTable);
      const column = reference.columns[0]!;
      const optional = !column.notNull;
      const unique = column.isUnique || column.primary || table.indexes.some((i) => i.config.unique && i.config.columns.length === 1 && "name" in i.config.columns[0]! && i.config.columns[0].name === column.name);
      const cardinality = `${optional ? "|o" : "||"}--${unique ? "o|" : "o{"}`;
      lines.push(`  ${entityName(target)} ${cardinality} ${entityName(table)} : "${column.name}"`);
    }
  }

  const sections = Object.entries(areas).map(([area, names]) => {
    const rows = names.map((name) => {
      const table = byName.get(name);
      if (!table) throw new Error(`Table ${name} of area ${area} is not in the schema`);
      return `| \`${name}\` | ${table.columns.length} | ${table.indexes.map((i) => `\`${i.config.name}\``).join(", ") || "—"} |`;
    });
    return [`### ${area} (\`src/server/db/schema/${area.toLowerCase()}.ts\`)`, "", "| table | columns | indexes |", "|---|---|---|", ...rows].join("\n");
  });
  const listed = new Set(Object.values(areas).flat());
  const unlisted = tables.filter((t) => !listed.has(t.name)).map((t) => t.name);
  if (unlisted.length) throw new Error(`Add these tables to an area in scripts/data-model-diagram.ts: ${unlisted.join(", ")}`);

  return [
    "# Data model",
    "",
    "Generated from the Drizzle schema in `src/server/db/schema/` by `npm run docs:data-model`; do not edit by hand.",
    "Column names are as the code spells them (camelCase); the database spells the same columns in snake_case. Money columns are",
    "`numeric(12,2)` and fractions (percent discounts, surcharges) `numeric(12,4)`, read as `Decimal`. Every table",
    "has `created_at` and `updated_at`.",
    "",
    "```mermaid",
    ...lines,
    "```",
    "",
    "## Tables by area",
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const target = path.join(import.meta.dirname, "..", "docs", "data-model.md");
  writeFileSync(target, renderDataModel());
  console.log(`Wrote ${path.relative(process.cwd(), target)}`);
}
