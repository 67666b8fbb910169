/**
 * Debian's headless Chromium for the browser tests (the decision explorer, the API reference
 * page, the admin console), driven by playwright-core.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

const CHROMIUM = '/usr/bin/chromium'

// The flags this machine's Chromium needs headless and offline: without the networking ones it
// tries hosts this machine cannot reach, many at a time.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]

/** Starts Chromium, or says how to install it. */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests`)
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
}
