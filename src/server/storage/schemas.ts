import { z } from "zod";
import { text } from "@/lib/text";

export const bucketListInput = z.object({
  /** A folder: empty for the top, otherwise ending with a slash. */
  prefix: text()
    .trim()
    .max(512)
    .refine((value) => value === "" || value.endsWith("/"), "must be empty or end with /")
    .default(""),
});
export const bucketDeleteInput = z.object({ key: text().min(1).max(1024) });

/** A bucket upload: the folder, whether to convert pictures, and the files, as multipart form data. */
export const bucketUploadInput = z.instanceof(FormData).transform((form, ctx) => {
  const prefix = String(form.get("prefix") ?? "");
  if (prefix !== "" && !prefix.endsWith("/")) {
    ctx.addIssue({ code: "custom", path: ["prefix"], message: "must be empty or end with /" });
    return z.NEVER;
  }
  return { prefix, convertToWebp: form.get("convertToWebp") === "true", form };
});

export type BucketListing = {
  prefix: string;
  folders: { name: string; prefix: string; objects: number }[];
  files: { key: string; name: string; size: number; updatedAt: Date; url: string; contentType: string }[];
  /** True when the folder holds more files than are listed. */
  truncated: boolean;
};
