// Browser tests' helper: one Debian Chromium per test file (playwright-core), pages opened against a real listening
// app, a test failed on any console error, page error or request to another host, and every page visited saved as a
// full-page screenshot at 1280 and 390 px under test-output/screenshots/ (390 px also checked for horizontal overflow).
import { after, before, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build, type TestApp } from '../helper.js';

const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A test file's browser, and the folder of its screenshots. */
export interface FileBrowser {
  readonly browser: () => Browser;
  readonly screenshots: string;
}

/**
 * Launches the file's browser before its first test and closes it after its last; call at the top of a test file with
 * its import.meta.url (which names its screenshots' folder).
 */
export function useBrowser(fileUrl: string): FileBrowser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await chromium.launch({ executablePath: EXECUTABLE, args: ARGS, headless: true });
  });
  after(async () => {
    await browser?.close();
  });
  const get = () => {
    if (!browser) throw new Error('the browser is not started: call useBrowser() at the top of the test file');
    return browser;
  };
  return {
    browser: get,
    screenshots: join(SCREENSHOTS, basename(fileURLToPath(fileUrl)).replace(/\.test\.[jt]s$/, '')),
  };
}

export interface Portal {
  /** The app, as build(t) gives it (its account's credentials included), listening at `base`. */
  readonly api: TestApp;
  /** {base}: http://127.0.0.1:<port>. */
  readonly base: string;
  /** {portal}: {base}/portal. */
  readonly portal: string;
  readonly page: Page;
  /** What went wrong on the pages so far (console errors, page errors, other hosts asked); must be empty at the end. */
  readonly problems: string[];
  /** Goes to a portal path (or an absolute URL of the app), and saves the page as `name`; returns the status. */
  visit(path: string, name: string): Promise<number>;
  /** Saves the page as it is now (after a click or a form) as `name` (unique in the file), at both widths. */
  capture(name: string): Promise<void>;
}

export interface PortalOptions {
  /** false: a browser without JavaScript, for pages that must work without. */
  readonly javaScript?: boolean;
  readonly env?: Record<string, string>;
}

/** A real app on a free port, and a page of the file's browser; both closed, and the page's problems asserted, after `t`. */
export async function openPortal(t: TestContext, file: FileBrowser, options: PortalOptions = {}): Promise<Portal> {
  // Hooks run in order: the browser lets go of its connections before build(t)'s hook closes the app, and the check
  // that may throw runs last, so that it never keeps the app open.
  const opened: { context?: BrowserContext } = {};
  const problems: string[] = [];
  t.after(async () => {
    await opened.context?.close();
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = await build(t, { PUBLIC_URL: base, ...options.env });
  t.after(() => {
    assert.deepEqual(problems, [], 'the pages logged errors or asked another host');
  });
  await api.app.listen({ port, host: '127.0.0.1' });
  const context = await file.browser().newContext({ javaScriptEnabled: options.javaScript ?? true, viewport: WIDE });
  opened.context = context;
  await watch(context, base, problems);
  const page = await context.newPage();
  const dir = file.screenshots;
  mkdirSync(dir, { recursive: true });
  const capture = async (name: string) => {
    await page.screenshot({ path: join(dir, `${name}-1280.png`), fullPage: true });
    await page.setViewportSize(PHONE);
    const overflow = await page.evaluate(() => {
      const root = document.documentElement;
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
    await page.screenshot({ path: join(dir, `${name}-390.png`), fullPage: true });
    await page.setViewportSize(WIDE);
    assert.deepEqual(problems, [], `${name}: the page logged errors or asked another host`);
    assert.ok(
      overflow.scrollWidth <= overflow.clientWidth,
      `${name} overflows a 390 px screen: ${overflow.scrollWidth} px wide in ${overflow.clientWidth}`,
    );
  };
  const visit = async (path: string, name: string) => {
    const answer = await page.goto(path.startsWith('http') ? path : `${base}/portal${path}`);
    assert.ok(answer, `no answer for ${path}`);
    await capture(name);
    return answer.status();
  };
  return { api, base, portal: `${base}/portal`, page, problems, visit, capture };
}

/**
 * Collects console errors, uncaught page errors, and requests to any origin but the app's (aborted; data: URLs are no
 * request). A page
 * answered 4xx on purpose (the 404 page, a refused form) makes Chromium log "Failed to load resource" for the page
 * itself: the test asserts that status, so that one message is not a problem; the same for any other resource is.
 */
async function watch(context: BrowserContext, base: string, problems: string[]): Promise<void> {
  const origin = new URL(base).origin;
  const pages = new Set<string>();
  context.on('request', (request) => {
    if (request.isNavigationRequest()) pages.add(request.url());
  });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || new URL(url).origin === origin) return route.continue();
    problems.push(`request to another host: ${url}`);
    return route.abort('blockedbyclient');
  });
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    if (message.text().startsWith('Failed to load resource: the server responded') && pages.has(where)) return;
    problems.push(`console error: ${message.text()} (${where})`);
  });
  context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
}

/** A port nobody listens on right now: the OS picks one, and it is released for the app. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
