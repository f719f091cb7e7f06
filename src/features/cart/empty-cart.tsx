/** An open watch box with an empty cushion, in the brand's brass and ink, for the empty cart. */
function EmptyBoxIllustration() {
  return (
    <svg viewBox="0 0 160 120" className="h-28 w-auto" aria-hidden>
      <ellipse cx="80" cy="108" rx="56" ry="6" className="fill-muted" />
      <path d="M28 58 L80 44 L132 58 L80 72 Z" className="fill-accent stroke-primary" strokeWidth="2" strokeLinejoin="round" />
      <path d="M28 58 V92 L80 106 V72 Z" className="fill-card stroke-primary" strokeWidth="2" strokeLinejoin="round" />
      <path d="M132 58 V92 L80 106 V72 Z" className="fill-secondary stroke-primary" strokeWidth="2" strokeLinejoin="round" />
      <path d="M28 58 L44 22 L96 8 L80 44 Z" className="fill-card stroke-primary" strokeWidth="2" strokeLinejoin="round" />
      <ellipse cx="80" cy="58" rx="14" ry="5" className="fill-none stroke-muted-foreground" strokeWidth="1.5" strokeDasharray="3 3" />
      <circle cx="124" cy="24" r="10" className="fill-none stroke-primary" strokeWidth="2" />
      <path d="M124 18 V24 L128 27" className="stroke-foreground" strokeWidth="2" strokeLinecap="round" fill="none" />
    </svg>
  );
}

export function EmptyCart({ children }: { children?: React.ReactNode }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
      <EmptyBoxIllustration />
      <p className="font-serif text-xl font-semibold">Your cart is empty</p>
      <p className="max-w-xs text-sm text-muted-foreground">
        The box is waiting for its first piece. Browse the new arrivals, or search for a calibre, crown or crystal — whatever you add stays here.
      </p>
      {children}
    </div>
  );
}
