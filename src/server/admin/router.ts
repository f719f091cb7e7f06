import { z } from "zod";
import { getStorage } from "@/server/integrations/storage/storage";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { bucketDeleteInput, bucketListInput } from "./schemas";
import { bucketFilesFromForm, deleteBucketObject, listBucket, uploadToBucket } from "./bucket-service";
import { getDashboard } from "./dashboard-service";
import { getBulkOfferProgress } from "./marketplace-progress";
import { getSidebarInformation } from "./sidebar-service";

export const sidebarRouter = createTRPCRouter({
  getSidebarInformation: adminProcedure.query(({ ctx }) => getSidebarInformation(ctx.db, ctx.session.user.id)),
});

export const dashboardRouter = createTRPCRouter({
  get: adminProcedure.query(({ ctx }) => getDashboard(ctx.db, ctx.session.user.id)),
});

export const ebayRouter = createTRPCRouter({
  getBulkProductEbayOffersProgress: adminProcedure.query(({ ctx }) => getBulkOfferProgress(ctx.db)),
});

/** A bucket upload: the folder, whether to convert pictures, and the files, as multipart form data. */
const bucketUploadInput = z.instanceof(FormData).transform((form, ctx) => {
  const prefix = String(form.get("prefix") ?? "");
  if (prefix !== "" && !prefix.endsWith("/")) {
    ctx.addIssue({ code: "custom", path: ["prefix"], message: "must be empty or end with /" });
    return z.NEVER;
  }
  return { prefix, convertToWebp: form.get("convertToWebp") === "true", form };
});

export const bucketRouter = createTRPCRouter({
  list: adminProcedure.input(bucketListInput).query(({ input }) => listBucket(getStorage(), input.prefix)),
  upload: adminProcedure.input(bucketUploadInput).mutation(async ({ ctx, input }) =>
    uploadToBucket(
      ctx.db,
      getStorage(),
      { prefix: input.prefix, convertToWebp: input.convertToWebp, files: await bucketFilesFromForm(input.form) },
      ctx.session.user.id,
    ),
  ),
  delete: adminProcedure.input(bucketDeleteInput).mutation(({ ctx, input }) => deleteBucketObject(ctx.db, getStorage(), input.key, ctx.session.user.id)),
});
