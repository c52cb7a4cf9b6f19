// axe-core's WCAG 2.1 A and AA rules on each page given (file:// or http URLs), in Debian's headless Chromium
// driven by playwright-core (no browser of its own), and axe's rules on headings, which it tags best-practice:
// headings in order, none empty, a first-level one. Prints one JSON list: per page, its URL and its violations
// (rule id, impact, help, and each element's selector, its HTML and why it fails, shortened).
//
//   node tests/pages_js/axe.mjs file:///path/to/page.html http://127.0.0.1:8888/formgrader/...
//
// Requests to any other origin than the page's are refused (the tests run with no network): a page must read
// well without them. Exit status 0 when every page was checked, whatever axe found; 2 when a page could not be.
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const AXE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules', 'axe-core', 'axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const HEADINGS = ['heading-order', 'empty-heading', 'page-has-heading-one'];
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const SHORT = 300;

const shorten = (text) => (text.length > SHORT ? `${text.slice(0, SHORT)}…` : text);

function violation(found) {
  return {
    id: found.id,
    impact: found.impact,
    help: found.help,
    nodes: found.nodes.map((node) => ({
      target: node.target.join(' '),
      html: shorten(node.html),
      why: shorten((node.failureSummary || '').replace(/\s+/g, ' ').trim()),
    })),
  };
}

async function check(browser, url) {
  const page = await browser.newPage();
  const origin = new URL(url).origin;
  await page.route('**/*', (route) => {
    const wanted = new URL(route.request().url());
    return wanted.protocol === 'data:' || wanted.origin === origin ? route.continue() : route.abort();
  });
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 60000 });
    await page.waitForLoadState('networkidle', { timeout: 15000 }).catch(() => {});
    await page.addScriptTag({ path: AXE });
    const found = await page.evaluate(async ([tags, headings]) => {
      const run = (runOnly) => window.axe.run(document, { runOnly, resultTypes: ['violations'] });
      const wcag = await run({ type: 'tag', values: tags });
      const titles = await run({ type: 'rule', values: headings });
      return [...wcag.violations, ...titles.violations];
    }, [TAGS, HEADINGS]);
    return { url, violations: found.map(violation) };
  } finally {
    await page.close();
  }
}

const urls = process.argv.slice(2);
if (urls.length === 0) {
  console.error('usage: node axe.mjs URL...');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
try {
  const pages = [];
  for (const url of urls) {
    pages.push(await check(browser, url));
  }
  console.log(JSON.stringify(pages, null, 1));
} catch (error) {
  console.error(`axe could not check a page: ${error.message}`);
  process.exitCode = 2;
} finally {
  await browser.close();
}
