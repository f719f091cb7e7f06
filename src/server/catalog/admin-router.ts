import { z } from "zod";
import { rowId } from "@/lib/id";
import { getStorage } from "@/server/integrations/storage/storage";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { storageImageUrl } from "./images";
import { addProductImages, deleteProductImage, filesFromForm, listProductImages, reorderProductImages } from "./admin-images";
import {
  adminProductListInput,
  bulkProductInput,
  createProductInput,
  imagePositionInput,
  oneProductInput,
  productIdInput,
  publishProductInput,
  reorderImagesInput,
  templateFormInput,
  templateIdInput,
  updateProductInput,
  updateTemplateInput,
} from "./admin-schemas";
import {
  createProduct,
  getAdminProduct,
  listAdminProducts,
  productFormChoices,
  updateProduct,
} from "./admin-service";
import { bulkChangeProducts } from "./bulk-products";
import { publishProduct, unpublishProduct } from "./publishing";
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from "./product-templates";

/** An upload: the product id and the picture files, sent as multipart form data. */
const imageUploadInput = z.instanceof(FormData).transform((form, ctx) => {
  const productId = rowId.safeParse(Number(form.get("productId")));
  if (!productId.success) {
    ctx.addIssue({ code: "custom", path: ["productId"], message: "must be a product id" });
    return z.NEVER;
  }
  return { productId: productId.data, form };
});

export const adminProductRouter = createTRPCRouter({
  list: adminProcedure.input(adminProductListInput).query(({ ctx, input }) => listAdminProducts(ctx.db, input, storageImageUrl)),
  get: adminProcedure.input(productIdInput).query(({ ctx, input }) => getAdminProduct(ctx.db, input.id)),
  formChoices: adminProcedure.query(({ ctx }) => productFormChoices(ctx.db)),
  create: adminProcedure.input(createProductInput).mutation(({ ctx, input }) => createProduct(ctx.db, input, ctx.session.user.id)),
  update: adminProcedure
    .input(updateProductInput)
    .mutation(({ ctx, input: { id, ...values } }) => updateProduct(ctx.db, id, values, ctx.session.user.id)),
  publish: adminProcedure.input(publishProductInput).mutation(({ ctx, input }) => publishProduct(ctx.db, input.id, input.channels, ctx.session.user.id)),
  unpublish: adminProcedure.input(productIdInput).mutation(({ ctx, input }) => unpublishProduct(ctx.db, input.id, ctx.session.user.id)),
  bulk: adminProcedure.input(bulkProductInput).mutation(({ ctx, input }) => bulkChangeProducts(ctx.db, input, ctx.session.user.id)),
  images: adminProcedure.input(oneProductInput).query(({ input }) => listProductImages(getStorage(), input.productId)),
  uploadImages: adminProcedure.input(imageUploadInput).mutation(async ({ ctx, input }) =>
    addProductImages(ctx.db, getStorage(), input.productId, await filesFromForm(input.form), ctx.session.user.id),
  ),
  reorderImages: adminProcedure
    .input(reorderImagesInput)
    .mutation(({ ctx, input }) => reorderProductImages(ctx.db, getStorage(), input.productId, input.order, ctx.session.user.id)),
  deleteImage: adminProcedure
    .input(imagePositionInput)
    .mutation(({ ctx, input }) => deleteProductImage(ctx.db, getStorage(), input.productId, input.position, ctx.session.user.id)),
});

export const adminTemplateRouter = createTRPCRouter({
  list: adminProcedure.query(({ ctx }) => listTemplates(ctx.db)),
  get: adminProcedure.input(templateIdInput).query(({ ctx, input }) => getTemplate(ctx.db, input.id)),
  create: adminProcedure.input(templateFormInput).mutation(({ ctx, input }) => createTemplate(ctx.db, input, ctx.session.user.id)),
  update: adminProcedure
    .input(updateTemplateInput)
    .mutation(({ ctx, input: { id, ...values } }) => updateTemplate(ctx.db, id, values, ctx.session.user.id)),
  delete: adminProcedure.input(templateIdInput).mutation(({ ctx, input }) => deleteTemplate(ctx.db, input.id, ctx.session.user.id)),
});
