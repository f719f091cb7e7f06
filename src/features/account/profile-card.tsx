"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { LogOut } from "lucide-react";
import { useRouter } from "next/navigation";
import { signOut, useSession } from "next-auth/react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/toast";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { updateProfileInput, type Profile, type UpdateProfileInput } from "@/server/account/schemas";
import { UserAvatar } from "./account-button";
import { useUpdateProfile } from "./queries";

const methodNames: Record<string, string> = { email: "E-mail link", google: "Google" };
const memberSince = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric" });

export function ProfileCard({ profile }: { profile: Profile }) {
  const router = useRouter();
  const { update: refreshSession } = useSession();
  const form = useForm<UpdateProfileInput>({ resolver: zodResolver(updateProfileInput), defaultValues: { name: profile.name ?? "" } });
  const save = useUpdateProfile({
    onSuccess: async () => {
      toast.success("Profile saved");
      await refreshSession();
      router.refresh();
    },
  });

  return (
    <div className="grid gap-6 md:grid-cols-[1fr_16rem]">
      <section className="rounded-xl border bg-card p-6">
        <div className="mb-6 flex items-center gap-4">
          <UserAvatar name={profile.name} email={profile.email} image={profile.image} className="size-14 text-base" />
          <div className="min-w-0">
            <h1 className="truncate font-serif text-2xl font-semibold">{profile.name ?? "Welcome"}</h1>
            <p className="truncate text-sm text-muted-foreground">{profile.email}</p>
          </div>
        </div>
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={form.handleSubmit(
            (values) => save.mutate(values),
            () => toast.error("Error", { description: "Please fill out all required fields" }),
          )}
        >
          <Label htmlFor="profile-name">
            Name<span aria-hidden className="text-destructive">*</span>
          </Label>
          <Input id="profile-name" autoComplete="name" aria-invalid={form.formState.errors.name ? true : undefined} {...form.register("name")} />
          {form.formState.errors.name ? <p className="text-sm text-destructive">{form.formState.errors.name.message}</p> : null}
          <p className="text-xs text-muted-foreground">Used on your orders and in our e-mails to you.</p>
          <div>
            <Button type="submit" disabled={save.isPending}>
              Save
            </Button>
          </div>
        </form>
      </section>
      <aside className="flex flex-col gap-4 rounded-xl border bg-card p-6 text-sm">
        <dl className="flex flex-col gap-3">
          <div>
            <dt className="text-muted-foreground">Member since</dt>
            <dd>{memberSince.format(profile.memberSince)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Sign-in methods</dt>
            <dd>{profile.signInMethods.map((method) => methodNames[method] ?? method).join(", ")}</dd>
          </div>
          {profile.personalDiscount ? (
            <div>
              <dt className="text-muted-foreground">Your discount</dt>
              <dd>
                {profile.personalDiscount.name} <span className="font-semibold text-primary">{profile.personalDiscount.label}</span>
              </dd>
            </div>
          ) : null}
        </dl>
        <Button variant="outline" onClick={() => void signOut({ callbackUrl: "/" })}>
          <LogOut /> Sign out
        </Button>
      </aside>
    </div>
  );
}
