/** SPEC section 3's bulk marketplace progress; `progress` is null while no bulk update runs. */
export type BulkOfferProgress = {
  progress: {
    /** A whole percentage as text, as the marketplace job reports it. */
    currentPercent: string;
    estimatedTimeToCompletion: string | null;
    currentCount: number;
    totalCount: number;
  } | null;
};
