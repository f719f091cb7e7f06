import "server-only";
import { eq } from "drizzle-orm";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { product } from "@/server/db/schema";
import { toWebp, uploadedFiles } from "@/server/storage/uploads";
import { AppError } from "@/server/errors";
import { listProductImageObjects, productImageKey, type StoragePort } from "@/server/integrations/storage/port";
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_PRODUCT, type ProductImage } from "./admin-schemas";
import { logProductChange, type LogChange } from "@/server/logbook/service";

/**
 * A product's pictures live in storage as products/{id}/1.webp, 2.webp, ... with no gaps: position 1 is the one the
 * shop shows. Reordering and deleting rewrite the keys so that stays true.
 */

export async function listProductImages(storage: StoragePort, productId: number): Promise<ProductImage[]> {
  return (await listProductImageObjects(storage, productId)).map((object) => ({
    position: object.position,
    key: object.key,
    // The key stays the same when a picture is replaced; the version makes the browser fetch the new one.
    url: `${storage.publicUrl(object.key)}?v=${object.updatedAt.getTime()}`,
    size: object.size,
  }));
}

/**
 * Every change to a product's pictures goes the same way: the product must exist, the change sees the pictures as
 * they are and says what it did, that is logged on the product, and the caller gets the pictures as they are now.
 */
async function changePictures(
  target: { db: Db; storage: StoragePort; productId: number; userId: string },
  change: (existing: ProductImage[]) => Promise<Pick<LogChange, "previousState" | "newState" | "description">>,
): Promise<ProductImage[]> {
  const { db, storage, productId, userId } = target;
  const [found] = await db.select({ id: product.id }).from(product).where(eq(product.id, productId));
  if (!found) throw new AppError("NOT_FOUND", `Product ${productId} does not exist.`);
  const done = await change(await listProductImages(storage, productId));
  await db.transaction(async (tx) => {
    await logProductChange(tx, productId, { userId, ...done });
    await catalogueChanged(tx, { productIds: [productId] });
  });
  return listProductImages(storage, productId);
}

/** Adds pictures after the existing ones, converted to WebP. */
export async function addProductImages(db: Db, storage: StoragePort, productId: number, files: Buffer[], userId: string): Promise<ProductImage[]> {
  return changePictures({ db, storage, productId, userId }, async (existing) => {
    if (files.length === 0) throw new AppError("BAD_REQUEST", "Choose at least one picture.");
    const tooLarge = files.find((file) => file.length > MAX_IMAGE_BYTES);
    if (tooLarge) throw new AppError("BAD_REQUEST", `A picture may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
    if (existing.length + files.length > MAX_IMAGES_PER_PRODUCT) {
      throw new AppError("BAD_REQUEST", `A product can have at most ${MAX_IMAGES_PER_PRODUCT} pictures; it has ${existing.length}.`);
    }
    // Converted before anything is stored, so one unreadable file stores nothing.
    const converted = await Promise.all(files.map(toWebp));
    for (const [index, body] of converted.entries()) {
      await storage.put(productImageKey(productId, existing.length + index + 1), body, "image/webp");
    }
    return {
      previousState: { images: existing.length },
      newState: { images: existing.length + converted.length },
      description: `${converted.length} picture${converted.length === 1 ? "" : "s"} added to product ${productId}`,
    };
  });
}

/** Rewrites the pictures in a new order; `order` lists every current position once. */
export async function reorderProductImages(db: Db, storage: StoragePort, productId: number, order: number[], userId: string): Promise<ProductImage[]> {
  return changePictures({ db, storage, productId, userId }, async (existing) => {
    const positions = existing.map((image) => image.position);
    const valid = order.length === positions.length && [...order].sort((a, b) => a - b).every((value, index) => value === positions[index]);
    if (!valid) throw new AppError("CONFLICT", "The pictures changed meanwhile: reload the page and order them again.");
    const bodies = await Promise.all(order.map(async (position) => (await storage.get(productImageKey(productId, position)))?.body));
    if (bodies.some((body) => !body)) throw new AppError("CONFLICT", "A picture disappeared meanwhile: reload the page.");
    for (const [index, body] of bodies.entries()) {
      if (order[index] !== index + 1) await storage.put(productImageKey(productId, index + 1), body!, "image/webp");
    }
    return { previousState: { imageOrder: positions }, newState: { imageOrder: order }, description: `Pictures of product ${productId} reordered` };
  });
}

/** Deletes one picture and moves the later ones up, so the first picture stays at position 1. */
export async function deleteProductImage(db: Db, storage: StoragePort, productId: number, position: number, userId: string): Promise<ProductImage[]> {
  return changePictures({ db, storage, productId, userId }, async (existing) => {
    if (!existing.some((image) => image.position === position)) {
      throw new AppError("NOT_FOUND", `Product ${productId} has no picture ${position}.`);
    }
    for (const image of existing.filter((candidate) => candidate.position > position)) {
      const stored = await storage.get(image.key);
      if (stored) await storage.put(productImageKey(productId, image.position - 1), stored.body, "image/webp");
    }
    await storage.delete(productImageKey(productId, existing.length));
    return {
      previousState: { images: existing.length },
      newState: { images: existing.length - 1, deletedPosition: position },
      description: `Picture ${position} of product ${productId} deleted`,
    };
  });
}

/** The picture files of a multipart upload, read into memory (each is capped at MAX_IMAGE_BYTES). */
export async function filesFromForm(form: FormData, field = "files"): Promise<Buffer[]> {
  const entries = uploadedFiles(form, field);
  if (entries.some((file) => file.size > MAX_IMAGE_BYTES)) {
    throw new AppError("BAD_REQUEST", `A picture may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
  }
  return Promise.all(entries.map(async (file) => Buffer.from(await file.arrayBuffer())));
}
