import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** The system's Chromium (Playwright cannot download its own here), with the flags this network needs. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = CANDIDATES.find((p): p is string => !!p && fs.existsSync(p));
  if (!executablePath) throw new Error('No Chromium found: apt-get install -y chromium (or set CHROMIUM_PATH)');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}
