/**
 * Test helper: launches Debian's headless Chromium through playwright-core
 * (Playwright's own browser download does not work on the build machines).
 *
 * - Executable: `$CHROMIUM_PATH`, else `/usr/bin/chromium`
 *   (`scripts/ci/install_chromium.sh` installs it).
 * - When it is missing, {@link launchChromium} answers null so browser tests
 *   can be skipped, unless `REQUIRE_BROWSER=1` (CI), where it throws.
 *
 * @module
 */
import { type Browser, chromium } from "playwright-core";

/** Where Chromium is looked for when `CHROMIUM_PATH` is not set. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Flags that keep Chromium quiet on a closed network, as root, without a GPU
 * (without the networking ones it keeps trying to reach Google's hosts).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A launched browser and how to dispose of it. */
export interface LaunchedBrowser {
  /** The Playwright browser. */
  browser: Browser;
  /** The executable that was started. */
  executablePath: string;
  /** Closes the browser (Playwright removes its temporary profile). */
  close(): Promise<void>;
}

/** The Chromium executable the tests use (`$CHROMIUM_PATH` or {@link DEFAULT_CHROMIUM_PATH}). */
export function chromiumPath(): string {
  return Deno.env.get("CHROMIUM_PATH") || DEFAULT_CHROMIUM_PATH;
}

/** True when browser tests must not be skipped (`REQUIRE_BROWSER=1`). */
export function browserRequired(): boolean {
  return Deno.env.get("REQUIRE_BROWSER") === "1";
}

/**
 * Why no browser can be launched here, or null when the executable exists.
 * Throws instead when {@link browserRequired}.
 */
export function missingBrowserReason(): string | null {
  const path = chromiumPath();
  let reason: string | null = null;
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) reason = `${path} is not a file`;
  } catch {
    reason = `no Chromium at ${path} (run scripts/ci/install_chromium.sh or set CHROMIUM_PATH)`;
  }
  if (reason && browserRequired()) throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  return reason;
}

/**
 * Launches headless Chromium. Answers null when no Chromium executable exists
 * (throws instead when `REQUIRE_BROWSER=1`). Each launch gets a new, empty
 * profile: Playwright passes its own temporary `--user-data-dir` and removes
 * it on close (it refuses one in `args`).
 */
export async function launchChromium(): Promise<LaunchedBrowser | null> {
  if (missingBrowserReason()) return null;
  const executablePath = chromiumPath();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS],
  });
  return {
    browser,
    executablePath,
    async close() {
      await browser.close().catch(() => {});
    },
  };
}
