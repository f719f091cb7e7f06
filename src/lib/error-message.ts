/** What went wrong, in the words of an Error or of whatever else was thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
