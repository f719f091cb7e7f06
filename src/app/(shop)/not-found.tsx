import Link from "next/link";
import { Button } from "@/components/ui/button";

export default function NotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-sm font-medium uppercase tracking-widest text-primary">404</p>
      <h1 className="mt-2 text-3xl font-semibold">This page has stopped ticking</h1>
      <p className="mt-3 text-muted-foreground">The piece may have been sold, or the address is mistyped. The search usually finds what you were after.</p>
      <div className="mt-6 flex gap-3">
        <Button asChild>
          <Link href="/search">Search the shop</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/">Home</Link>
        </Button>
      </div>
    </div>
  );
}
