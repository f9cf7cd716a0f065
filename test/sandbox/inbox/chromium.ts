/**
 * Debian's Chromium driven by playwright-core, for the sandbox's browser tests. Skipped, loudly,
 * when Chromium is missing on a developer machine; a failure under CI=true (`.ci/run` installs it).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';

/** Whether the browser tests run: when Chromium is there, and always under CI=true. */
export const browserTestsRun = available || inCi;
if (!browserTestsRun) {
  console.warn(
    `\n!!!!! SKIPPED: the sandbox browser tests need Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH) !!!!!\n`,
  );
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium with a fresh profile; `close()` stops it and removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!available)
    throw new Error(`CI=true and no Chromium at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`);
  const userDataDir = await mkdtemp(join(tmpdir(), 'inbox-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
