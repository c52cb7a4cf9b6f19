// Press nbgrader's Validate button on a notebook open in Jupyter (Notebook 7), in headless Chromium, and say what
// its dialog shows.
//
//   node validate.mjs <notebook URL> <screenshot.png> [timeout in seconds, 240 by default]
//
// Prints one JSON line: {"title": ..., "text": ..., "failed_cells": [{"source": ..., "error": ...}]}, the title of
// the dialog that comes ("Validation Results", or nbgrader's "Validation failed"), its whole text as a reader sees
// it, and each failed cell's source and error as nbgrader's dialog lays them out; saves a screenshot of the page
// with the dialog open. Exits 1, with a one-line reason on stderr, when the notebook, the button or a dialog does
// not come.
import { chromium } from "playwright-core";

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];

const [url, screenshot, seconds = "240"] = process.argv.slice(2);
if (!url || !screenshot) {
  console.error("usage: node validate.mjs <notebook URL> <screenshot.png> [timeout in seconds]");
  process.exit(2);
}
const timeout = Number(seconds) * 1000;

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  await page.goto(url, { timeout });
  // nbgrader's toolbar button saves the notebook, then asks the server to validate it: the notebook must be open
  const button = page.getByRole("button", { name: "Validate", exact: true });
  await button.waitFor({ timeout });
  await page.locator(".jp-Notebook .jp-Cell").first().waitFor({ timeout });
  await button.click();
  // "Validation Results", or nbgrader's "Validation failed" / "Version Mismatch" when it could not validate
  const dialog = page.locator(".jp-Dialog").last();
  await dialog.waitFor({ timeout });
  const said = await dialog.evaluate((node) => ({
    title: node.querySelector(".jp-Dialog-header")?.innerText.trim() ?? "",
    text: node.querySelector(".jp-Dialog-body")?.innerText ?? "",
    failed_cells: [...node.querySelectorAll(".validation-failed > .jp-RenderedText")].reduce((cells, part, i) => {
      const text = part.innerText;
      if (i % 2 === 0) cells.push({ source: text, error: "" }); else cells[cells.length - 1].error = text;
      return cells;
    }, []),
  }));
  await page.screenshot({ path: screenshot });
  console.log(JSON.stringify(said));
} catch (error) {
  console.error(`no Validate dialog: ${error.message.split("\n")[0]}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
