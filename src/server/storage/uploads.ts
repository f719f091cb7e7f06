import "server-only";
import sharp from "sharp";
import { AppError } from "@/server/errors";

/**
 * What staff may upload (bucket files and product pictures), decided from the file's own bytes: the type a browser
 * sends is whatever the file's name or the sender claims, and the bucket serves what it stores to every visitor.
 */

/** Files in one upload: a product's pictures or a folder's banners, not a whole archive. */
export const MAX_FILES_PER_UPLOAD = 20;
/** All files of one upload together; a larger batch is sent in parts, so one request never holds more in memory. */
export const MAX_UPLOAD_REQUEST_BYTES = 50 * 1024 * 1024;

export type FileType = {
  label: string;
  contentType: string;
  /** The name endings that say this type, the usual one first. */
  extensions: readonly string[];
  picture: boolean;
  /** Whether a file's first bytes are this type's signature. */
  matches: (body: Buffer) => boolean;
};

const startsWith = (body: Buffer, offset: number, text: string) => body.toString("latin1", offset, offset + text.length) === text;

/** ISO media files (AVIF, HEIC, MP4) name what they are in a leading `ftyp` box: a major brand and compatible ones. */
function mediaBrands(body: Buffer): string[] {
  if (body.length < 16 || !startsWith(body, 4, "ftyp")) return [];
  const end = Math.min(body.readUInt32BE(0), body.length);
  const brands = [body.toString("latin1", 8, 12)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(body.toString("latin1", offset, offset + 4));
  return brands;
}

export const fileTypes = {
  jpeg: { label: "JPEG", contentType: "image/jpeg", extensions: ["jpg", "jpeg"], picture: true, matches: (body) => startsWith(body, 0, "\xff\xd8\xff") },
  png: { label: "PNG", contentType: "image/png", extensions: ["png"], picture: true, matches: (body) => startsWith(body, 0, "\x89PNG\r\n\x1a\n") },
  webp: { label: "WebP", contentType: "image/webp", extensions: ["webp"], picture: true, matches: (body) => startsWith(body, 0, "RIFF") && startsWith(body, 8, "WEBP") },
  gif: { label: "GIF", contentType: "image/gif", extensions: ["gif"], picture: true, matches: (body) => startsWith(body, 0, "GIF87a") || startsWith(body, 0, "GIF89a") },
  avif: { label: "AVIF", contentType: "image/avif", extensions: ["avif"], picture: true, matches: (body) => mediaBrands(body).some((brand) => brand === "avif" || brand === "avis") },
  tiff: { label: "TIFF", contentType: "image/tiff", extensions: ["tif", "tiff"], picture: true, matches: (body) => startsWith(body, 0, "II*\0") || startsWith(body, 0, "MM\0*") },
  pdf: { label: "PDF", contentType: "application/pdf", extensions: ["pdf"], picture: false, matches: (body) => startsWith(body, 0, "%PDF-") },
} satisfies Record<string, FileType>;

/** Which of the allowed types a file is, from its first bytes; null when it is none of them. */
export function sniffFileType(body: Buffer, allowed: readonly FileType[]): FileType | null {
  return allowed.find((type) => type.matches(body)) ?? null;
}

/** "JPEG, PNG or PDF", for messages. */
export function fileTypeNames(types: readonly FileType[]): string {
  const labels = types.map((type) => type.label);
  return labels.length < 2 ? labels.join("") : `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)}`;
}

const megabytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MB`;

/** The files of one multipart field, refused before anything is read when the upload holds too many or too much. */
export function uploadedFiles(form: FormData, field: string): File[] {
  const files = form.getAll(field).filter((entry): entry is File => typeof entry !== "string");
  if (files.length > MAX_FILES_PER_UPLOAD) {
    throw new AppError("BAD_REQUEST", `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time; you chose ${files.length}.`);
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_UPLOAD_REQUEST_BYTES) {
    throw new AppError("BAD_REQUEST", `Upload at most ${megabytes(MAX_UPLOAD_REQUEST_BYTES)} at a time; these files come to ${megabytes(total)}.`);
  }
  return files;
}

/** Longest side of a stored picture; large enough for a zoomed product page, small enough to load fast. */
const MAX_SIDE = 1600;

/**
 * The picture formats staff upload. sharp reads more (SVG, HEIF, raw camera files), but only these are let through
 * to it, whatever the file claims to be.
 */
const pictureTypes = [fileTypes.jpeg, fileTypes.png, fileTypes.webp, fileTypes.avif, fileTypes.gif, fileTypes.tiff];
const notAPicture = `That file is not a picture we can read (use ${fileTypeNames(pictureTypes)}).`;

/** A picture in one of those formats as a WebP no larger than MAX_SIDE, turned upright by its EXIF orientation. */
export async function toWebp(body: Buffer): Promise<Buffer> {
  if (!sniffFileType(body, pictureTypes)) throw new AppError("BAD_REQUEST", notAPicture);
  try {
    return await sharp(body, { failOn: "error" })
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (error) {
    throw new AppError("BAD_REQUEST", notAPicture, { cause: error });
  }
}
