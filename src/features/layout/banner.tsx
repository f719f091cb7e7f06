import { Fragment } from "react";

const LINK = /(https?:\/\/[^\s]+)/g;

/** The optional top banner; every http(s) address in its text becomes a link labelled 'here' (SPEC section 2). */
export function Banner({ text }: { text: string }) {
  const parts = text.split(LINK);
  return (
    <div className="bg-foreground px-4 py-2 text-center text-xs text-background sm:text-sm" role="region" aria-label="Announcement">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="font-semibold underline underline-offset-2 hover:no-underline">
            here
            {/* The visible label is 'here' (SPEC section 2); screen readers and crawlers also get what it is about. */}
            <span className="sr-only"> to read more about: {parts[0]?.trim()}</span>
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </div>
  );
}
