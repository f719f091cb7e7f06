import { randomBytes } from "node:crypto";
import { TRPCError } from "@trpc/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FILES_PER_UPLOAD, MAX_UPLOAD_REQUEST_BYTES } from "@/server/storage/uploads";
import { listProductImages } from "@/server/catalog/admin-images";
import { getStorage } from "@/server/integrations/storage/storage";
import { createCaller } from "@/server/root";
import { makeProduct } from "../helpers/factories";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { contextFor, makeUser } from "../helpers/admin-fixtures";

// Staff uploads as the admin pages send them (multipart form data through tRPC), into the embedded default's storage.

let t: TestDatabase;
let admin: ReturnType<typeof createCaller>;
let png: Buffer;
let jpeg: Buffer;

const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const webPage = Buffer.from("<!doctype html><script>fetch('/api/trpc/admin.sidebar.getSidebarInformation')</script>");
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="red"/></svg>');

beforeAll(async () => {
  t = await createTestDatabase();
  admin = createCaller(contextFor(t.db, await makeUser(t.db, "ADMIN")));
  png = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#b08d57" } }).png().toBuffer();
  jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#1d2a44" } }).jpeg().toBuffer();
});

afterAll(() => t?.dispose());

/** A folder of its own per test: the storage folder is shared by the test files of one run. */
const freshFolder = () => `upload-test-${randomBytes(4).toString("hex")}/`;

function bucketForm(folder: string, files: { name: string; body: Buffer; type: string }[], convertToWebp = false) {
  const form = new FormData();
  form.set("prefix", folder);
  form.set("convertToWebp", String(convertToWebp));
  for (const file of files) form.append("files", new File([new Uint8Array(file.body)], file.name, { type: file.type }));
  return form;
}

function pictureForm(productId: number, files: { name: string; body: Buffer; type: string }[]) {
  const form = new FormData();
  form.set("productId", String(productId));
  for (const file of files) form.append("files", new File([new Uint8Array(file.body)], file.name, { type: file.type }));
  return form;
}

async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCError) return { code: error.code, message: error.message };
    throw error;
  }
  return { code: "OK", message: "" };
}

const keysIn = async (folder: string) => (await getStorage().list(folder)).map((object) => object.key);

describe("admin.bucket.upload", () => {
  it("stores a file under the type its bytes show, not the type the browser sent", async () => {
    const folder = freshFolder();
    const keys = await admin.admin.bucket.upload(
      bucketForm(folder, [
        { name: "banner.png", body: png, type: "text/html" },
        { name: "return-label.pdf", body: pdf, type: "application/octet-stream" },
      ]),
    );
    expect(keys).toEqual([`${folder}banner.png`, `${folder}return-label.pdf`]);
    expect((await getStorage().get(`${folder}banner.png`))?.contentType).toBe("image/png");
    expect((await getStorage().get(`${folder}return-label.pdf`))?.contentType).toBe("application/pdf");
  });

  it("refuses a web page or an SVG, whatever it is called, and stores nothing", async () => {
    const folder = freshFolder();
    for (const file of [
      { name: "offer.html", body: webPage, type: "text/html" },
      { name: "offer.png", body: webPage, type: "image/png" },
      { name: "logo.svg", body: svg, type: "image/svg+xml" },
    ]) {
      expect(await refusal(admin.admin.bucket.upload(bucketForm(folder, [{ name: "banner.png", body: png, type: "image/png" }, file])))).toEqual({
        code: "BAD_REQUEST",
        message: `${file.name} cannot go in the bucket: upload JPEG, PNG, WebP, AVIF, GIF or PDF files only.`,
      });
    }
    expect(await keysIn(folder)).toEqual([]);
  });

  it("refuses to publish into the folders of private documents, such as labels/ (SECURITY-REVIEW N-H1)", async () => {
    for (const folder of ["labels/2026/", "exports/"]) {
      expect(await refusal(admin.admin.bucket.upload(bucketForm(folder, [{ name: "label.pdf", body: pdf, type: "application/pdf" }])))).toEqual({
        code: "BAD_REQUEST",
        message: "Cannot store label.pdf there: a private folder: its documents are never public.",
      });
      expect(await keysIn(folder)).toEqual([]);
    }
  });

  it("refuses a picture whose name says another type", async () => {
    const folder = freshFolder();
    expect(await refusal(admin.admin.bucket.upload(bucketForm(folder, [{ name: "banner.html", body: png, type: "text/html" }])))).toEqual({
      code: "BAD_REQUEST",
      message: "banner.html is a PNG file: give it a name ending in .png.",
    });
    expect(await refusal(admin.admin.bucket.upload(bucketForm(folder, [{ name: "photo.png", body: jpeg, type: "image/png" }])))).toMatchObject({
      message: "photo.png is a JPEG file: give it a name ending in .jpg.",
    });
    expect(await keysIn(folder)).toEqual([]);
  });

  it("accepts either name ending of a type, and converts pictures to WebP when asked", async () => {
    const folder = freshFolder();
    const keys = await admin.admin.bucket.upload(
      bucketForm(folder, [{ name: "Strap Photo.JPEG", body: jpeg, type: "image/jpeg" }, { name: "label.pdf", body: pdf, type: "application/pdf" }], true),
    );
    expect(keys).toEqual([`${folder}Strap-Photo.webp`, `${folder}label.pdf`]);
    expect((await getStorage().get(`${folder}Strap-Photo.webp`))?.contentType).toBe("image/webp");
  });

  it(`refuses more than ${MAX_FILES_PER_UPLOAD} files in one upload`, async () => {
    const folder = freshFolder();
    const files = Array.from({ length: MAX_FILES_PER_UPLOAD + 1 }, (_, index) => ({ name: `banner-${index}.png`, body: png, type: "image/png" }));
    expect(await refusal(admin.admin.bucket.upload(bucketForm(folder, files)))).toEqual({
      code: "BAD_REQUEST",
      message: `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time; you chose ${MAX_FILES_PER_UPLOAD + 1}.`,
    });
    expect(await keysIn(folder)).toEqual([]);
    expect(await admin.admin.bucket.upload(bucketForm(folder, files.slice(0, MAX_FILES_PER_UPLOAD)))).toHaveLength(MAX_FILES_PER_UPLOAD);
  });

  it("refuses more than 50 MB in one upload, though each file is within its own limit", async () => {
    const folder = freshFolder();
    const large = Buffer.concat([pdf, Buffer.alloc(20 * 1024 * 1024)]);
    const files = [1, 2, 3].map((n) => ({ name: `catalogue-part-${n}.pdf`, body: large, type: "application/pdf" }));
    expect(MAX_UPLOAD_REQUEST_BYTES).toBe(50 * 1024 * 1024);
    expect(await refusal(admin.admin.bucket.upload(bucketForm(folder, files)))).toEqual({
      code: "BAD_REQUEST",
      message: "Upload at most 50 MB at a time; these files come to 61 MB.",
    });
    expect(await keysIn(folder)).toEqual([]);
  });
});

describe("admin.product.uploadImages", () => {
  it("converts a JPEG sent with any type to the product's WebP picture", async () => {
    const item = await makeProduct(t.db, { name: "Crown, signed" });
    const images = await admin.admin.product.uploadImages(pictureForm(item.id, [{ name: "crown", body: jpeg, type: "application/octet-stream" }]));
    expect(images.map((image) => image.position)).toEqual([1]);
    expect((await sharp((await getStorage().get(images[0]!.key))!.body).metadata()).format).toBe("webp");
  });

  it("refuses an SVG, which the picture converter would otherwise render, and stores nothing", async () => {
    const item = await makeProduct(t.db, { name: "Dial, sunburst" });
    expect(await refusal(admin.admin.product.uploadImages(pictureForm(item.id, [{ name: "dial.png", body: svg, type: "image/png" }])))).toEqual({
      code: "BAD_REQUEST",
      message: "That file is not a picture we can read (use JPEG, PNG, WebP, AVIF, GIF or TIFF).",
    });
    expect(await listProductImages(getStorage(), item.id)).toEqual([]);
  });

  it("refuses too many files or too many bytes in one upload before reading them", async () => {
    const item = await makeProduct(t.db, { name: "Bezel, Pepsi" });
    const many = Array.from({ length: MAX_FILES_PER_UPLOAD + 1 }, (_, index) => ({ name: `bezel-${index}.png`, body: png, type: "image/png" }));
    expect(await refusal(admin.admin.product.uploadImages(pictureForm(item.id, many)))).toMatchObject({
      code: "BAD_REQUEST",
      message: `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time; you chose ${MAX_FILES_PER_UPLOAD + 1}.`,
    });
    const heavy = Buffer.concat([jpeg, Buffer.alloc(14 * 1024 * 1024)]);
    const photos = [1, 2, 3, 4].map((n) => ({ name: `bezel-${n}.jpg`, body: heavy, type: "image/jpeg" }));
    expect(await refusal(admin.admin.product.uploadImages(pictureForm(item.id, photos)))).toEqual({
      code: "BAD_REQUEST",
      message: "Upload at most 50 MB at a time; these files come to 57 MB.",
    });
    expect(await listProductImages(getStorage(), item.id)).toEqual([]);
  });
});
