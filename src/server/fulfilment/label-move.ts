import "server-only";
import type { Db } from "@/server/db/client";
import { privateFolders, type ObjectStore, type PrivateStoragePort } from "@/server/integrations/storage/port";
import { logChange } from "@/server/logbook/service";

/**
 * Moves the labels an older version of the shop stored in the public bucket, where anyone could list and download
 * them (SECURITY-REVIEW N-H1), to the private storage. A label keeps its key, so the order's `gcsLabelFilename`
 * still names it and staff download it as before. Each label is written to the private storage and read back before
 * its public copy is removed: a failure half-way leaves a label in both places, never in neither, and the next run
 * finishes the move. With nothing left under `labels/` in the public bucket it does nothing. Returns the keys moved.
 */
export async function movePublicLabels(db: Db, storages: { from: ObjectStore; to: PrivateStoragePort }): Promise<string[]> {
  const moved: string[] = [];
  for (const { key } of await storages.from.list(privateFolders.labels)) {
    const label = await storages.from.get(key);
    if (!label) continue; // removed meanwhile: another instance is moving it, or staff voided the label
    await storages.to.put(key, label.body, label.contentType);
    const copy = await storages.to.get(key);
    if (!copy?.body.equals(label.body)) throw new Error(`The private copy of ${key} does not match the public one; the public one is kept`);
    await storages.from.delete(key);
    moved.push(key);
  }
  if (moved.length > 0) {
    await logChange(db, {
      userId: null,
      eventType: "SECURITY",
      logLevel: "WARNING",
      description: `Moved ${moved.length} shipping label${moved.length === 1 ? "" : "s"} from the public bucket to the private storage; until now anyone could download them`,
      newState: { keys: moved },
    });
  }
  return moved;
}
