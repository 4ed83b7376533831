import fs from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { inject } from 'vitest';
import { reportOnClose } from './pageReport.ts';

/** Debian's Chromium, the browser a person uses (Playwright cannot download its own here). */
const FULL = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
/**
 * Debian's headless shell of the same Chromium: the same Blink and V8 without the browser around
 * them, and what Playwright itself runs for a headless test. The end-to-end run spent 40 % of its CPU
 * in Chromium; with the shell, a third less (decision 153).
 */
const SHELL = [process.env.CHROMIUM_HEADLESS_SHELL_PATH, '/usr/bin/chromium-headless-shell'];

/**
 * Launch options for the headless shell (`full`: the whole browser, for what the shell lacks, such as
 * the Screen Wake Lock), with the flags this network needs. With no shell installed, the full browser.
 */
export function chromiumLaunchOptions(browser: 'shell' | 'full' = 'shell'): LaunchOptions {
  const found = (paths: Array<string | undefined>) => paths.find((p): p is string => !!p && fs.existsSync(p));
  const executablePath = (browser === 'shell' ? found(SHELL) : undefined) ?? found(FULL);
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
 * connection closes the contexts it made. With no shared Chromium, a new one of its own. A context it
 * opens reports its pages when it closes after its test failed (tests/support/pageReport.ts).
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch(chromiumLaunchOptions());
  return reportOnClose(browser);
}

/**
 * The whole browser, launched for the caller alone, for a feature the headless shell does not have
 * (the Screen Wake Lock: the shell refuses it). Close it when done.
 */
export async function launchFullChromium(): Promise<Browser> {
  return reportOnClose(await chromium.launch(chromiumLaunchOptions('full')));
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** the WebSocket endpoint of the run's one Chromium, when the e2e global setup launched it */
    chromiumEndpoint: string | undefined;
  }
}
