/** Flags every launch passes so that Chromium stays quiet on a closed network; the caller adds its headless flag. */
export declare const quietChromiumFlags: readonly string[];

/** CHROMIUM_PATH, else a system Chromium or Chrome, else @sparticuz/chromium's on Linux x64; throws otherwise. */
export declare function findChromium(): Promise<string>;
