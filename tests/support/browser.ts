import fs from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { inject } from 'vitest';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** The system's Chromium (Playwright cannot download its own here), with the flags this network needs. */
export function chromiumLaunchOptions(): LaunchOptions {
  const executablePath = CANDIDATES.find((p): p is string => !!p && fs.existsSync(p));
  if (!executablePath) throw new Error('No Chromium found: apt-get install -y chromium (or set CHROMIUM_PATH)');
  return {
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
      // a test camera and microphone, allowed without a prompt (recording on /submit-media)
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  };
}

/**
 * A connection to the run's one Chromium, which the e2e global setup launched
 * (tests/support/browserGlobalSetup.ts): a file starts in a fraction of the time a launch takes, and
 * its pages are as much its own as before, since each is in a browser context of its own. Closing the
 * connection closes the contexts it made. With no shared Chromium, a new one of its own.
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch(chromiumLaunchOptions());
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** the WebSocket endpoint of the run's one Chromium, when the e2e global setup launched it */
    chromiumEndpoint: string | undefined;
  }
}
