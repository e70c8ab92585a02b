import { chromium, type Browser, type Page, type Request } from 'playwright-core';

/** Debian's chromium package; CI installs it when missing (`apt-get install -y chromium`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The machine has no network: without the background-networking flags
 * chromium keeps trying Google's services and floods the log with refused
 * connections, and QUIC probes do the same.
 */
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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, timeout: 60_000 });
}

/**
 * Records what must never happen on a docs page: a console error (a CSP
 * violation and a failed asset load are reported there too), an uncaught
 * exception, a request that failed (but one cancelled because the page was
 * left), and any request that leaves `origin`.
 */
export function watchPage(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // Which navigation of the page each request was made under: a request the browser cancels because the page
  // was left (a favicon still loading when a link is followed, on a busy machine) is the browser's doing.
  let navigations = 0;
  const madeUnder = new WeakMap<Request, number>();
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations += 1;
    madeUnder.set(request, navigations);
    const url = new URL(request.url());
    // data: URLs are the reference's inlined icons, blob: URLs what it makes in the page: nothing leaves it.
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) problems.push(`request off the server: ${request.url()}`);
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText;
    if (error === 'net::ERR_ABORTED' && madeUnder.get(request)! < navigations) return;
    problems.push(`request failed: ${request.url()} (${error})`);
  });
  return problems;
}
