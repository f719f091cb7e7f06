import "server-only";
import path from "node:path";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { contentTypeForKey, isPrivateDocumentKey, publicKeyProblem, storageKeyProblem, type StoragePort } from "@/server/integrations/storage/port";
import { logChange } from "@/server/logbook/service";
import type { BucketListing } from "./schemas";
import { fileTypeNames, fileTypes, sniffFileType, toWebp, uploadedFiles } from "./uploads";

/** Files shown per folder; a folder with more says so and staff narrow down by folder. */
const MAX_FILES = 500;
const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/**
 * What the public bucket holds besides product pictures: banners and other pictures the shop shows, and PDFs staff
 * publish. Labels are not among them: they are in the private storage, which this browser does not show.
 */
const bucketFileTypes = [fileTypes.jpeg, fileTypes.png, fileTypes.webp, fileTypes.avif, fileTypes.gif, fileTypes.pdf];

/**
 * One folder of the public bucket: its sub-folders (with how many objects each holds) and its own files. Labels an
 * older version left in the public bucket are not shown: they get no public address, and the `move-public-labels`
 * job moves them to the private storage.
 */
export async function listBucket(storage: StoragePort, prefix: string): Promise<BucketListing> {
  if (prefix !== "" && storageKeyProblem(prefix.slice(0, -1))) throw new AppError("BAD_REQUEST", "That is not a folder of the bucket.");
  const objects = (await storage.list(prefix)).filter((object) => !isPrivateDocumentKey(object.key));
  const folders = new Map<string, number>();
  const files: BucketListing["files"] = [];
  for (const object of objects) {
    const rest = object.key.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash >= 0) {
      const name = rest.slice(0, slash);
      folders.set(name, (folders.get(name) ?? 0) + 1);
    } else if (files.length < MAX_FILES) {
      files.push({
        key: object.key,
        name: rest,
        size: object.size,
        updatedAt: object.updatedAt,
        url: `${storage.publicUrl(object.key)}?v=${object.updatedAt.getTime()}`,
        contentType: contentTypeForKey(object.key),
      });
    }
  }
  const fileCount = objects.length - [...folders.values()].reduce((sum, value) => sum + value, 0);
  return {
    prefix,
    folders: [...folders.entries()]
      .sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))
      .map(([name, objectCount]) => ({ name, prefix: `${prefix}${name}/`, objects: objectCount })),
    files,
    truncated: fileCount > files.length,
  };
}

export type BucketUpload = { name: string; body: Buffer };

/**
 * Stores files in a folder under their own (cleaned) names. Pictures can be converted to WebP on the way, as the
 * shop serves them; anything else is stored as it came. A file's type is read from its bytes, and its name must
 * say the same, because the bucket serves it under that name to everyone.
 */
export async function uploadToBucket(
  db: Db,
  storage: StoragePort,
  input: { prefix: string; files: BucketUpload[]; convertToWebp: boolean },
  userId: string,
): Promise<string[]> {
  if (input.files.length === 0) throw new AppError("BAD_REQUEST", "Choose at least one file.");
  const stored: { key: string; body: Buffer; type: string }[] = [];
  for (const file of input.files) {
    if (file.body.length > MAX_UPLOAD_BYTES) throw new AppError("BAD_REQUEST", `${file.name} is larger than 25 MB.`);
    const type = sniffFileType(file.body, bucketFileTypes);
    if (!type) throw new AppError("BAD_REQUEST", `${file.name} cannot go in the bucket: upload ${fileTypeNames(bucketFileTypes)} files only.`);
    const base = cleanFileName(file.name);
    if (!type.extensions.includes(path.extname(base).slice(1).toLowerCase())) {
      throw new AppError("BAD_REQUEST", `${file.name} is a ${type.label} file: give it a name ending in .${type.extensions[0]}.`);
    }
    const convert = input.convertToWebp && type.picture;
    const name = convert ? `${path.parse(base).name}.webp` : base;
    const key = `${input.prefix}${name}`;
    const problem = publicKeyProblem(key);
    if (problem) throw new AppError("BAD_REQUEST", `Cannot store ${file.name} there: ${problem}.`);
    stored.push({ key, body: convert ? await toWebp(file.body) : file.body, type: convert ? fileTypes.webp.contentType : type.contentType });
  }
  for (const file of stored) await storage.put(file.key, file.body, file.type);
  await logChange(db, {
    userId,
    eventType: "PRODUCT",
    description: `Uploaded ${stored.length} file${stored.length === 1 ? "" : "s"} to the bucket folder "${input.prefix || "/"}"`,
    newState: { keys: stored.map((file) => file.key) },
  });
  return stored.map((file) => file.key);
}

export async function deleteBucketObject(db: Db, storage: StoragePort, key: string, userId: string): Promise<void> {
  const problem = storageKeyProblem(key);
  if (problem) throw new AppError("BAD_REQUEST", `Not a file of the bucket: ${problem}.`);
  await storage.delete(key);
  await logChange(db, { userId, eventType: "PRODUCT", description: `Deleted ${key} from the bucket`, previousState: { key } });
}

/** Letters, digits, dot, dash and underscore; spaces become dashes. Keeps names readable in URLs. */
function cleanFileName(name: string): string {
  const cleaned = path
    .basename(name)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, "-")
    .replace(/[^A-Za-z0-9._-]/g, "")
    .replace(/^\.+/, "");
  return cleaned || "file";
}

/** The files of a multipart upload. */
export async function bucketFilesFromForm(form: FormData): Promise<BucketUpload[]> {
  const entries = uploadedFiles(form, "files");
  if (entries.some((file) => file.size > MAX_UPLOAD_BYTES)) throw new AppError("BAD_REQUEST", "Files may be at most 25 MB each.");
  return Promise.all(entries.map(async (file) => ({ name: file.name, body: Buffer.from(await file.arrayBuffer()) })));
}
