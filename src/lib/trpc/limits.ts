/** The most calls one batched request may carry: the server refuses more and the browser's batch link sends no more (SECURITY-REVIEW M6). */
export const MAX_BATCH_SIZE = 10;
