import "server-only";
import { Decimal } from "decimal.js";
import { asc, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { country, productCategory, productManufacturer, productTemplate } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange, type LogChange } from "@/server/logbook/service";
import type { ProductTemplate, ProductTemplateSummary } from "./admin-schemas";

/**
 * Product templates staff start a new product from: the form's values saved under a name, kept to the categories,
 * manufacturers and countries that exist, and logged when created, changed or deleted.
 */

export type TemplateValues = Omit<ProductTemplate, "id" | "updatedAt" | "price" | "shippingFee"> & {
  price?: string;
  shippingFee?: string;
};

export async function listTemplates(db: Db): Promise<ProductTemplateSummary[]> {
  return db
    .select({
      id: productTemplate.id,
      templateName: productTemplate.templateName,
      templateDescription: productTemplate.templateDescription,
      name: productTemplate.name,
      itemType: productTemplate.itemType,
      updatedAt: productTemplate.updatedAt,
    })
    .from(productTemplate)
    .orderBy(asc(productTemplate.templateName));
}

export async function getTemplate(db: Db, id: number): Promise<ProductTemplate> {
  const { createdAt: _createdAt, ...columns } = getTableColumns(productTemplate);
  const [row] = await db.select(columns).from(productTemplate).where(eq(productTemplate.id, id));
  if (!row) throw new AppError("NOT_FOUND", `Template ${id} does not exist.`);
  return row;
}

function templateColumns(values: TemplateValues) {
  return {
    ...values,
    price: values.price ? new Decimal(values.price) : null,
    shippingFee: values.shippingFee ? new Decimal(values.shippingFee) : null,
  };
}

/** A template may leave the category, manufacturer and country open; the ones it names must exist. */
async function assertTemplateReferences(tx: Db, values: TemplateValues): Promise<void> {
  const [[category], [manufacturer], [found]] = await Promise.all([
    values.categoryId === null ? [{}] : tx.select({ id: productCategory.id }).from(productCategory).where(eq(productCategory.id, values.categoryId)),
    values.manufacturerId === null ? [{}] : tx.select({ id: productManufacturer.id }).from(productManufacturer).where(eq(productManufacturer.id, values.manufacturerId)),
    values.countryId === null ? [{}] : tx.select({ id: country.id }).from(country).where(eq(country.id, values.countryId)),
  ]);
  if (!category) throw new AppError("BAD_REQUEST", `Category ${values.categoryId} does not exist.`);
  if (!manufacturer) throw new AppError("BAD_REQUEST", `Manufacturer ${values.manufacturerId} does not exist.`);
  if (!found) throw new AppError("BAD_REQUEST", `Country ${values.countryId} does not exist.`);
}

/** A template's change, logged as every one is: a PRODUCT event that names the template and what happened to it. */
function logTemplateChange(tx: Db, userId: string, templateName: string, happened: "created" | "changed" | "deleted", states: Pick<LogChange, "previousState" | "newState">) {
  return logChange(tx, { userId, eventType: "PRODUCT", description: `Product template "${templateName}" ${happened}`, ...states });
}

export async function createTemplate(db: Db, values: TemplateValues, userId: string): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    await assertTemplateReferences(tx, values);
    const [row] = await tx.insert(productTemplate).values(templateColumns(values)).returning({ id: productTemplate.id });
    await logTemplateChange(tx, userId, values.templateName, "created", { newState: { templateId: row!.id, ...values } });
    return { id: row!.id };
  });
}

export async function updateTemplate(db: Db, id: number, values: TemplateValues, userId: string): Promise<ProductTemplate> {
  await db.transaction(async (tx) => {
    const before = await getTemplate(tx, id);
    await assertTemplateReferences(tx, values);
    await tx.update(productTemplate).set(templateColumns(values)).where(eq(productTemplate.id, id));
    await logTemplateChange(tx, userId, values.templateName, "changed", { previousState: before, newState: { templateId: id, ...values } });
  });
  return getTemplate(db, id);
}

export async function deleteTemplate(db: Db, id: number, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await getTemplate(tx, id);
    await tx.delete(productTemplate).where(eq(productTemplate.id, id));
    await logTemplateChange(tx, userId, before.templateName, "deleted", { previousState: before });
  });
}
