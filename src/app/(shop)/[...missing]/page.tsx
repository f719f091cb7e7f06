import { notFound } from "next/navigation";

// Any other address (a menu entry without a link goes to /404) gets the shop's own not-found page, inside the
// shop layout, instead of the framework's bare one.
export default function MissingPage() {
  notFound();
}
