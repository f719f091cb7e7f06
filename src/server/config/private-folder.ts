import { chmodSync, mkdirSync } from "node:fs";

/**
 * Makes the folder (and any missing parents) and keeps it readable by its owner only, also when it existed already:
 * the data folder holds the generated secrets, the embedded database, sandbox mail and shipping labels.
 */
export function ensurePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // mkdirSync leaves an existing folder's mode alone, and earlier versions of the shop made these 0755.
  chmodSync(folder, 0o700);
}
