// Headless Chromium (Debian's `chromium` package) for the console's browser test, driven by playwright-core.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.S2SP_CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why the browser test cannot run here, or undefined when it can. In CI (CI=true)
 * or with S2SP_REQUIRE_CHROMIUM=1 a missing browser is a failure, not a skip:
 * .ci/run installs it.
 */
export function chromiumSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set S2SP_CHROMIUM_PATH)`;
  if (process.env.CI === 'true' || process.env.S2SP_REQUIRE_CHROMIUM === '1')
    throw new Error(`${reason}; required here (CI or S2SP_REQUIRE_CHROMIUM=1)`);
  return reason;
}

/**
 * Launches it headless with a fresh profile (playwright's launch makes a new
 * user-data dir). Without the background-networking switches Chromium tries to
 * reach Google's services, which a closed network refuses.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
