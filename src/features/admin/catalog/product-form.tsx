"use client";

import { ImagePlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminCard } from "@/components/ui/admin-card";
import { useUploadClient } from "@/lib/trpc/upload-client";
import {
  descriptionTextFields,
  productFormInput,
  requiredProductFields,
  unfilledPlaceholders,
  type AdminProduct,
  type ProductFormInput,
  type ProductTemplate,
} from "@/server/catalog/admin-schemas";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { filledThenSchema, showRefusal } from "../kit/forms/filled-resolver";
import { CancelButton, FormActions, FormSection, RequiredNote, SubmitButton, useSaveShortcut } from "../kit/forms/form-layout";
import { EbayPriceField } from "./ebay-price-field";
import { noOpeningStock, OpeningStockFields, readOpeningStock, type OpeningStockDraft } from "./opening-stock-fields";
import { ProductFields, type ProductFieldValues } from "./product-fields";
import { PublishControls } from "./publish-controls";
import { useCreateProduct, useProductFormChoices, useRefreshAdminProducts, useUpdateProduct } from "./queries";

type FormValues = ProductFieldValues & { ebayPrice: string; wsStatus: "ONLINE" | "OFFLINE"; ebayStatus: "ONLINE" | "OFFLINE" };

const blank: FormValues = {
  name: "", price: "", ebayPrice: "", shippingFee: "", isBulk: false, categoryId: Number.NaN, manufacturerId: Number.NaN, countryId: Number.NaN,
  caliber: "UNKNOWN", state: "UNKNOWN", itemType: "UNKNOWN", gender: "UNKNOWN", wsStatus: "ONLINE", ebayStatus: "OFFLINE",
  ...(Object.fromEntries(descriptionTextFields.map((field) => [field, ""])) as Record<(typeof descriptionTextFields)[number], string>),
};

const text = (value: string | null | undefined) => value ?? "";

/** Form values from a saved product, or from a template's starting point. */
function valuesFrom(source: AdminProduct | ProductTemplate | null): FormValues {
  if (!source) return blank;
  const description = Object.fromEntries(descriptionTextFields.map((field) => [field, text(source[field])])) as Record<(typeof descriptionTextFields)[number], string>;
  return {
    ...blank,
    ...description,
    name: text(source.name),
    price: source.price ? source.price.toFixed(2) : "",
    ebayPrice: "ebayPrice" in source && source.ebayPrice ? source.ebayPrice.toFixed(2) : "",
    shippingFee: source.shippingFee ? source.shippingFee.toFixed(2) : "",
    isBulk: source.isBulk,
    categoryId: source.categoryId ?? Number.NaN,
    manufacturerId: source.manufacturerId ?? Number.NaN,
    countryId: source.countryId ?? Number.NaN,
    caliber: source.caliber ?? "UNKNOWN",
    state: source.state ?? "UNKNOWN",
    itemType: source.itemType ?? "UNKNOWN",
    gender: source.gender ?? "UNKNOWN",
    ...("wsStatus" in source ? { wsStatus: source.wsStatus, ebayStatus: source.ebayStatus } : {}),
  };
}

function toInput(values: FormValues): ProductFormInput {
  return {
    ...values,
    categoryId: values.categoryId,
    manufacturerId: values.manufacturerId,
    countryId: Number.isNaN(values.countryId) ? null : values.countryId,
    caliber: values.caliber as ProductFormInput["caliber"],
    state: values.state as ProductFormInput["state"],
    itemType: values.itemType as ProductFormInput["itemType"],
    gender: values.gender as ProductFormInput["gender"],
  };
}

const required = new Set<string>(requiredProductFields);
const resolver = filledThenSchema(productFormInput, requiredProductFields, toInput);

export function ProductForm({ product, template }: { product?: AdminProduct; template?: ProductTemplate | null }) {
  const router = useRouter();
  const uploads = useUploadClient();
  const choices = useProductFormChoices();
  const refreshProducts = useRefreshAdminProducts();
  const initial = useMemo(() => valuesFrom(product ?? template ?? null), [product, template]);
  const form = useForm<FormValues, unknown, ProductFormInput>({ defaultValues: initial, resolver, shouldFocusError: false });
  const [wsStatus, ebayStatus, price, ebayPrice] = useWatch({ control: form.control, name: ["wsStatus", "ebayStatus", "price", "ebayPrice"] });
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const refusals = useFieldRefusals(form);
  const [pictures, setPictures] = useState<File[]>([]);
  const [openingStock, setOpeningStock] = useState<OpeningStockDraft>(noOpeningStock);
  const [openingErrors, setOpeningErrors] = useState<Record<string, string>>({});
  /** The fields a refused publish found a placeholder in, with what to fill in. */
  const [marks, setMarks] = useState<ReadonlyMap<string, string>>(new Map());
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => form.reset(initial), [form, initial]);

  // Choosing a maker whose country the shop knows fills in an empty country of origin with it; staff may change it.
  const manufacturerId = useWatch({ control: form.control, name: "manufacturerId" });
  const chosenMaker = useRef(manufacturerId);
  useEffect(() => {
    if (chosenMaker.current === manufacturerId) return;
    chosenMaker.current = manufacturerId;
    const makerCountry = choices.data?.makerCountries[manufacturerId];
    if (makerCountry !== undefined && Number.isNaN(form.getValues("countryId"))) form.setValue("countryId", makerCountry, { shouldDirty: true });
  }, [manufacturerId, choices.data, form]);

  const create = useCreateProduct();
  const update = useUpdateProduct();
  const [uploading, setUploading] = useState(false);
  const busy = create.isPending || update.isPending || uploading;

  const submit = async (input: ProductFormInput) => {
    setInvalid(new Set());
    setMarks(new Map());
    if (product) {
      const saved = await update.mutateAsync({ id: product.id, ...input });
      form.reset(valuesFrom(saved));
      toast.success("Saved", { description: `${saved.name} is up to date.` });
      return;
    }
    const opening = readOpeningStock(openingStock);
    setOpeningErrors(opening.errors);
    if (Object.keys(opening.errors).length) {
      toast.error("Error", { description: `Opening stock: ${Object.values(opening.errors)[0]}` });
      return;
    }
    // A new product is a draft: the channels are chosen when it is published.
    const { wsStatus: _web, ebayStatus: _ebay, ...fields } = input;
    const { id } = await create.mutateAsync({ ...fields, openingStock: opening.value });
    if (pictures.length) {
      setUploading(true);
      try {
        const data = new FormData();
        data.set("productId", String(id));
        for (const picture of pictures) data.append("files", picture);
        await uploads.admin.product.uploadImages.mutate(data);
      } catch (error) {
        toast.error("Error", { description: `The product was saved, but its pictures were not: ${(error as Error).message}` });
      } finally {
        setUploading(false);
      }
    }
    await refreshProducts();
    toast.success("Draft created", { description: `#${id} ${input.name}: publish it when it is ready.` });
    router.push(`/admin/products/edit?id=${id}`);
  };

  useSaveShortcut(formRef);

  /** Saves what staff typed before publishing it; false when the form refuses it or the save fails. */
  const saveBeforePublish = async () => {
    if (!product || !form.formState.isDirty) return true;
    if (!(await form.trigger())) {
      toast.error("Error", { description: "Save the product's changes first: a field is not filled in right." });
      return false;
    }
    try {
      await submit(toInput(form.getValues()));
      return true;
    } catch {
      return false;
    }
  };
  const markPlaceholders = () =>
    setMarks(new Map(unfilledPlaceholders(form.getValues()).map((found) => [found.field, `Fill in ${found.placeholders.join(", ")} before publishing`])));
  const draft = product ? product.publishedAt === null : true;

  // The selects can only show a saved category or manufacturer once their options are there.
  if (!choices.data) return <div className="h-[32rem] animate-pulse rounded-lg border bg-muted/40" aria-busy="true" />;
  return (
    <form ref={formRef} noValidate onSubmit={form.handleSubmit((input) => submit(input).catch(refusals.refuseFromServer), (errors) => showRefusal(errors, setInvalid))} aria-label={product ? "Edit product" : "New product"}>
      <AdminCard className="px-5">
        <ProductFields
          register={form.register}
          choices={choices.data}
          required={required}
          invalid={invalid}
          errorOf={(name) => marks.get(name) ?? refusals.errorOf(name)}
          besidePrice={<EbayPriceField registration={form.register("ebayPrice")} price={price} ebayPrice={ebayPrice} error={refusals.errorOf("ebayPrice")} />}
        />
        {product ? null : <OpeningStockFields value={openingStock} onChange={setOpeningStock} errors={openingErrors} />}
        {draft ? (
          <FormSection title="Channels" description="Where the product is offered." bodyClassName="text-sm">
            <p data-testid="draft-note">
              A draft: on neither the web shop nor eBay until it is published. A template&apos;s placeholders such as {"{size}"} may stay until then.
            </p>
          </FormSection>
        ) : (
        <FormSection title="Channels" description="Where the product is offered." bodyClassName="flex flex-wrap gap-6 text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" className="size-4 accent-[var(--primary)]" checked={wsStatus === "ONLINE"} onChange={(event) => form.setValue("wsStatus", event.target.checked ? "ONLINE" : "OFFLINE", { shouldDirty: true })} />
            On the web shop
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" className="size-4 accent-[var(--primary)]" checked={ebayStatus === "ONLINE"} onChange={(event) => form.setValue("ebayStatus", event.target.checked ? "ONLINE" : "OFFLINE", { shouldDirty: true })} />
            On eBay
          </label>
        </FormSection>
        )}
        {product ? null : (
          <FormSection title="Pictures" description="Stored as WebP; the first is the one the shop shows. Reorder them after saving." bodyClassName="">
            <label className="flex cursor-pointer items-center gap-3 rounded-md border border-dashed bg-muted/30 px-4 py-3 text-sm hover:bg-muted/60">
              <ImagePlus className="size-5 text-brass" />
              <span>{pictures.length ? `${pictures.length} picture${pictures.length === 1 ? "" : "s"} chosen: ${pictures.map((file) => file.name).join(", ")}` : "Choose pictures (JPEG, PNG, WebP…)"}</span>
              <input type="file" accept="image/*" multiple className="sr-only" aria-label="Pictures" onChange={(event) => setPictures([...(event.target.files ?? [])])} />
            </label>
          </FormSection>
        )}
      </AdminCard>
      <FormActions sticky className="mt-4" note={<RequiredNote shortcut />}>
        <CancelButton />
        {product ? <PublishControls product={product} beforePublish={saveBeforePublish} onRefused={markPlaceholders} /> : null}
        <SubmitButton busy={busy}>{product ? "Save changes" : "Create draft"}</SubmitButton>
      </FormActions>
    </form>
  );
}
