import { randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { sandboxProbeAnswer } from "../port-status";
import { assertStorageKey, contentTypeForKey, publicStorage, type ObjectStore, type PrivateStoragePort, type StoragePort, type StoredObjectInfo } from "./port";

/**
 * The embedded default's public storage: a folder on disk, served by the app under `/storage/<key>` (product
 * pictures only, see src/app/storage).
 */
export function createSandboxStorage(options: { root: string; publicPath?: string }): StoragePort {
  const objects = sandboxObjects(options.root);
  return publicStorage(objects, (options.publicPath ?? "/storage").replace(/\/+$/, ""));
}

/**
 * The embedded default's private storage: a folder of its own, beside the public one (`sandboxPrivateStorageRoot`),
 * which no route serves. Nothing outside the shop reads it, so there is nothing to check at start-up.
 */
export function createSandboxPrivateStorage(options: { root: string }): PrivateStoragePort {
  return { ...sandboxObjects(options.root), visibility: "private", assertPrivate: async () => {} };
}

/**
 * A folder on disk as an object store. The content type normally follows from the key's extension; when a caller
 * stores something else (a `.bin` key with an image in it), the type is kept beside the object in a hidden
 * `.content-type/` tree so `get` returns what was put.
 */
function sandboxObjects(folder: string): ObjectStore {
  const root = path.resolve(folder);
  const typesRoot = path.join(root, ".content-type");

  const fileOf = (key: string) => {
    assertStorageKey(key);
    const file = path.join(root, ...key.split("/"));
    // The key check already rules this out; this is the last line of defence for a path outside the root.
    if (!file.startsWith(root + path.sep)) throw new Error(`Storage key escapes the storage folder: ${key}`);
    return file;
  };
  const typeFileOf = (key: string) => path.join(typesRoot, ...key.split("/"));

  // Written beside the target and renamed over it, so that a reader never sees half an image.
  async function writeAtomically(file: string, body: Buffer | string) {
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString("hex")}.partial`;
    await writeFile(temporary, body);
    try {
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  return {
    kind: "sandbox",
    probe: async () => sandboxProbeAnswer,

    async put(key, body, contentType) {
      const file = fileOf(key);
      await writeAtomically(file, body);
      if (contentType === contentTypeForKey(key)) {
        await rm(typeFileOf(key), { force: true });
      } else {
        await writeAtomically(typeFileOf(key), contentType);
      }
    },

    async get(key) {
      const file = fileOf(key);
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      const storedType = await readFile(typeFileOf(key), "utf8").catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      return { body, contentType: storedType ?? contentTypeForKey(key) };
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
      await rm(typeFileOf(key), { force: true });
    },

    async list(prefix) {
      // Walk only the folder the prefix points into; a prefix may end inside a name ("products/12" lists 12 and 120).
      const slash = prefix.lastIndexOf("/");
      const folderKey = slash === -1 ? "" : prefix.slice(0, slash);
      if (folderKey !== "") assertStorageKey(folderKey);
      const found: StoredObjectInfo[] = [];
      await walk(path.join(root, ...folderKey.split("/").filter(Boolean)), folderKey, prefix, found);
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

async function walk(folder: string, folderKey: string, prefix: string, found: StoredObjectInfo[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name.endsWith(".partial")) continue;
    const key = folderKey === "" ? entry.name : `${folderKey}/${entry.name}`;
    if (entry.isDirectory()) {
      if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(path.join(folder, entry.name), key, prefix, found);
    } else if (entry.isFile() && key.startsWith(prefix)) {
      const info = await stat(path.join(folder, entry.name));
      found.push({ key, size: info.size, updatedAt: info.mtime });
    }
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR");
}
