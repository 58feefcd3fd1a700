// The first screen's budgets (issue #7): JavaScript for `/` under 150 KB gzipped, and the
// first contentful paint of `/` served by the real server, in headless Chromium. Prints
// figures; asserts nothing. Run after `pnpm build`: `pnpm --filter @mates/web bench`.
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, startServer } from '../../../e2e/harness';
import { FIRST_SCREEN_BUDGET_KB, WEB_DIST, firstScreenSize } from './first-screen-size';

function bundleFigures() {
  const { files, raw, gzipped } = firstScreenSize();
  const all = fs.readdirSync(path.join(WEB_DIST, 'assets')).filter((name) => name.endsWith('.js'));
  console.log(`first screen: ${files.length} scripts of ${all.length} chunks`);
  console.log(
    `first-screen JavaScript: ${(raw / 1024).toFixed(1)} KB raw, ${(gzipped / 1024).toFixed(1)} KB gzipped (budget ${FIRST_SCREEN_BUDGET_KB} KB: ${gzipped / 1024 <= FIRST_SCREEN_BUDGET_KB ? 'within' : 'OVER'})`,
  );
}

async function paintFigures(runs = 7) {
  const server = await startServer();
  const browser = await launchBrowser();
  const fcp: number[] = [];
  const cards: number[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByRole('article').first().waitFor();
      const timings = await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        now: performance.now(),
      }));
      fcp.push(timings.fcp);
      cards.push(timings.now);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  console.log(
    `first contentful paint of / (local server, ${runs} cold profiles): median ${median(fcp).toFixed(0)} ms, min ${Math.min(...fcp).toFixed(0)}, max ${Math.max(...fcp).toFixed(0)}`,
  );
  console.log(`mate cards on screen: median ${median(cards).toFixed(0)} ms after navigation start`);
}

bundleFigures();
await paintFigures();
