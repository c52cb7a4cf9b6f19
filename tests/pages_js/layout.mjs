// A page as a reader gets it with no network, in Debian's headless Chromium driven by playwright-core: every
// request the page made (only the page's own file or origin and data: URLs are served, the rest refused), the box
// of each element a CSS selector finds, the page's text as a reader sees it (innerText) and its DOM once loaded.
//
//   node tests/pages_js/layout.mjs file:///path/to/page.html 'math'
//
// Prints one JSON object: {"requests": [url...], "elements": [{"tag", "attributes", "text", "width", "height"}],
// "text": ..., "dom": ...}. Exit status 2 when the page could not be opened.
import { chromium } from 'playwright-core';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

const [url, selector] = process.argv.slice(2);
if (!url || !selector) {
  console.error('usage: node layout.mjs URL SELECTOR');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const origin = new URL(url).origin;
  const requests = [];
  await page.route('**/*', (route) => {
    const wanted = new URL(route.request().url());
    requests.push(wanted.href.slice(0, 300));
    return wanted.protocol === 'data:' || wanted.origin === origin ? route.continue() : route.abort();
  });
  await page.goto(url, { waitUntil: 'load', timeout: 60000 });
  await page.waitForLoadState('networkidle', { timeout: 15000 }).catch(() => {});
  const found = await page.evaluate((css) => ({
    elements: [...document.querySelectorAll(css)].map((element) => {
      const box = element.getBoundingClientRect();
      return {
        tag: element.localName,
        attributes: Object.fromEntries([...element.attributes].map((a) => [a.name, a.value])),
        text: element.textContent,
        width: box.width,
        height: box.height,
      };
    }),
    text: document.body.innerText,
    dom: document.documentElement.outerHTML,
  }), selector);
  console.log(JSON.stringify({ requests, ...found }));
} catch (error) {
  console.error(`layout could not open the page: ${error.message}`);
  process.exitCode = 2;
} finally {
  await browser.close();
}
