import { getStorage } from "@/server/integrations/storage/storage";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { bucketDeleteInput, bucketListInput, bucketUploadInput } from "./schemas";
import { bucketFilesFromForm, deleteBucketObject, listBucket, uploadToBucket } from "./service";

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
