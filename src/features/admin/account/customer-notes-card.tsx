"use client";

import { Save, X } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminInput, AdminTextarea } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/toast";
import { customerNotesInput, type CustomerDetail } from "@/server/account/customer-admin-schemas";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { useUpdateCustomerNotes } from "./queries";

/**
 * Staff's note and tags on a customer, never shown to them. A tag is added with Enter or a comma; saving checks both
 * with the server's schema first, and marks the field it refuses.
 */
export function CustomerNotesCard({ customer }: { customer: CustomerDetail }) {
  const [note, setNote] = useState(customer.staffNote ?? "");
  const [tags, setTags] = useState(customer.tags);
  const [tagText, setTagText] = useState("");
  const [errors, setErrors] = useState<{ staffNote?: string; tags?: string }>({});
  const save = useUpdateCustomerNotes();
  const changed = note.trim() !== (customer.staffNote ?? "") || tags.join("\n") !== customer.tags.join("\n") || tagText.trim() !== "";

  const addTag = () => {
    const tag = tagText.trim().replace(/,$/, "").trim();
    if (tag && !tags.some((one) => one.toLowerCase() === tag.toLowerCase())) setTags([...tags, tag]);
    setTagText("");
  };
  const onTagKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      addTag();
    } else if (event.key === "Backspace" && tagText === "" && tags.length > 0) {
      setTags(tags.slice(0, -1));
    }
  };
  const submit = () => {
    const pending = tagText.trim();
    const allTags = pending && !tags.some((one) => one.toLowerCase() === pending.toLowerCase()) ? [...tags, pending] : tags;
    const values = { userId: customer.id, staffNote: note, tags: allTags };
    const parsed = customerNotesInput.safeParse(values);
    if (!parsed.success) {
      const found: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === "tags" ? "tags" : "staffNote";
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setTags(allTags);
    setTagText("");
    save.mutate(values, { onSuccess: () => toast.success("Saved", { description: "The note and tags are kept." }) });
  };

  return (
    <AdminCard>
      <AdminCardHeader title="Staff note and tags" description="Only staff see these" />
      <div className="space-y-3 px-4 py-3">
        <FormField label="Note" htmlFor="field-staffNote" error={errors.staffNote}>
          <AdminTextarea {...fieldProps("staffNote", errors.staffNote)} rows={4} value={note} onChange={(event) => setNote(event.target.value)} placeholder="Prefers pick-up; collects Seiko divers…" />
        </FormField>
        <FormField label="Tags" htmlFor="field-tags" error={errors.tags} hint="Enter or a comma adds a tag; the customer list finds them by it.">
          {tags.length ? (
            <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
              {tags.map((tag) => (
                <li key={tag}>
                  <AdminBadge tone="brass">
                    {tag}
                    <button type="button" aria-label={`Remove the tag ${tag}`} className="hover:text-foreground" onClick={() => setTags(tags.filter((one) => one !== tag))}>
                      <X className="size-3" />
                    </button>
                  </AdminBadge>
                </li>
              ))}
            </ul>
          ) : null}
          <AdminInput {...fieldProps("tags", errors.tags)} value={tagText} onChange={(event) => setTagText(event.target.value)} onKeyDown={onTagKey} onBlur={addTag} placeholder="Add a tag" />
        </FormField>
        <div className="flex justify-end">
          <Button size="sm" disabled={!changed || save.isPending} onClick={submit}>
            <Save /> Save note and tags
          </Button>
        </div>
      </div>
    </AdminCard>
  );
}
