import { gunzipSync, gzipSync } from "node:zlib";

/**
 * An embedded database's backup as PGlite writes it (`dumpDataDir`: a gzipped tar of the database folder), made safe
 * to unpack by hand: PGlite writes every file 0666 and every folder 0755, with absolute names, so `tar -x` as root
 * would recreate a world-readable, world-writable database at the root of the machine (SECURITY-REVIEW N-M6). Each
 * entry is rewritten owner-only (files 0600, folders 0700) under a relative name; the contents are untouched, and
 * PGlite loads the result as it loads its own.
 */
export function privateTarball(gzipped: Uint8Array): Buffer {
  const tar = Buffer.from(gunzipSync(gzipped));
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const type = String.fromCharCode(header[TYPE]!);
    const isFolder = type === "5";
    // Extended headers (pax, GNU long names) carry no mode of their own worth keeping.
    if (type !== "x" && type !== "g" && type !== "L" && type !== "K") {
      writeOctal(header, MODE, 8, isFolder ? 0o700 : 0o600);
      // A long name starts in the prefix field. PGlite's writer keeps access and change times after its first 131
      // bytes (as star does), so only its start tells whether it is used.
      if (header[PREFIX] !== 0) dropLeadingSlashes(header, PREFIX, 131);
      else dropLeadingSlashes(header, NAME, 100);
    }
    writeChecksum(header);
    const size = readOctal(header, SIZE, 12);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return gzipSync(tar);
}

const BLOCK = 512;
const NAME = 0;
const MODE = 100;
const SIZE = 124;
const CHECKSUM = 148;
const TYPE = 156;
const PREFIX = 345;

function readOctal(header: Buffer, at: number, length: number): number {
  const text = header.toString("latin1", at, at + length).replace(/\0.*$/, "").trim();
  return text ? parseInt(text, 8) : 0;
}

/** An octal number right-aligned with leading zeros and a closing NUL, as tar writes them. */
function writeOctal(header: Buffer, at: number, length: number, value: number): void {
  header.write(`${value.toString(8).padStart(length - 1, "0")}\0`, at, length, "latin1");
}

function dropLeadingSlashes(header: Buffer, at: number, length: number): void {
  const field = header.subarray(at, at + length);
  let leading = 0;
  while (leading < field.length && field[leading] === 0x2f) leading++;
  if (leading === 0) return;
  field.copyWithin(0, leading);
  field.fill(0, field.length - leading);
}

/** The sum of the header's bytes with the checksum field counted as spaces: six octal digits, NUL, space. */
function writeChecksum(header: Buffer): void {
  header.fill(0x20, CHECKSUM, CHECKSUM + 8);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, CHECKSUM, 8, "latin1");
}
