import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumLaunchOptions } from './browser.ts';

/** One Chromium for the whole end-to-end run; each file connects to it (launchChromium). */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(chromiumLaunchOptions());
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
