import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDocs } from '../../src/docs/serve-docs.js';
import { addDays, dateRange, daysBetween } from '../../src/feed/iso-date.js';
import { exampleProject } from '../support/example-project.js';
import { fixtureProject } from '../support/fixture-project.js';
import { runCli } from '../support/run-cli.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

if (!hasChromium) {
  console.warn(`docs-site browser tests skipped: ${CHROMIUM} is missing (install it with: apt-get install -y chromium)`);
}

describe('docs generate: a static site under target/', () => {
  const jaffle = fixtureProject('jaffle-shop');
  const brightcart = exampleProject();
  let browser: Browser | undefined;

  beforeAll(async () => {
    expect(runCli(['build', '--project-dir', jaffle]).code).toBe(0);
    expect(runCli(['docs', 'generate', '--project-dir', jaffle]).code).toBe(0);
    expect(runCli(['seed', '--project-dir', brightcart]).code).toBe(0);
    // Built as of 10 September: later rows landed since, so partitions are stale.
    expect(runCli(['run', '--project-dir', brightcart, '--vars', '{as_of: "2026-09-10"}']).code).toBe(0);
    const docs = runCli(['docs', 'generate', '--project-dir', brightcart]);
    expect(docs.code).toBe(0);
    expect(docs.stdout).toContain('Catalog: 3 models, 1 seeds, 0 sources, 8 data tests');
    if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('writes one self-contained page with the layout inlined', () => {
    const html = readFileSync(join(jaffle, 'target/index.html'), 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    const data = JSON.parse(/<script id="docs-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!);
    const kinds = new Set((data.nodes as { kind: string }[]).map((n) => n.kind));
    expect([...kinds].sort()).toEqual(['seed', 'table', 'test', 'view']);
    expect((data.nodes as { x: number }[]).every((n) => Number.isFinite(n.x))).toBe(true);
  });

  it.skipIf(!hasChromium)('from file://, clicking a model in the graph shows its SQL and columns', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${join(jaffle, 'target/index.html')}`);
    await page.click('g.node[data-id="model.jaffle_shop.orders"]');
    await expect.poll(() => page.textContent('#details h2')).toBe('orders');
    expect(await page.textContent('#details .raw-sql')).toContain('{% for payment_method in payment_methods -%}');
    expect(await page.textContent('#details .compiled-sql')).toContain("sum(case when payment_method = 'credit_card' then amount else 0 end) as credit_card_amount");
    const columns = await page.$$eval('#details table.columns tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
    expect(columns).toEqual(['order_id', 'customer_id', 'order_date', 'status', 'credit_card_amount', 'coupon_amount', 'bank_transfer_amount', 'gift_card_amount', 'amount']);
    expect(await page.textContent('#details')).toContain('relationships_orders_customer_id__customer_id__ref_customers_');
    expect(await page.getAttribute('g.node[data-id="model.jaffle_shop.orders"] rect', 'width')).not.toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });

  it.skipIf(!hasChromium)('an incremental model shows when and why each partition was last written, and which are stale', async () => {
    const page = await browser!.newPage();
    await page.goto(`file://${join(brightcart, 'target/index.html')}#model.brightcart.daily_revenue`);
    await expect.poll(() => page.textContent('#details h2')).toBe('daily_revenue');
    const rows = await page.$$eval('#details table.partitions tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual(['2026-09-01', expect.any(String), 'full', '2026-09-10', 'first build: the target does not exist yet']);
    expect(await page.textContent('#details .stale')).toMatch(/^2026-09-0\d/);
    expect(await page.textContent('#details')).toContain('Stale partitions (as of 2026-10-31)');
    await page.close();
  });

  it.skipIf(!hasChromium)('the Replay page: the grid for both lookbacks (a row per night, a cell per day up to it) and the lateness histogram with the lookback line', async () => {
    // Expected from the feed's rows: nights from the day after the first order to the last load (at most 61), days from the first order.
    const [header, ...lines] = readFileSync(join(brightcart, 'seeds/raw_orders.csv'), 'utf8').trim().split('\n');
    const col = (name: string) => header!.split(',').indexOf(name);
    const rows = lines.map((l) => l.split(',')).map((f) => ({ order: f[col('order_date')]!, load: f[col('load_date')]! }));
    const first = rows.map((r) => r.order).sort()[0]!;
    const last = rows.map((r) => r.load).sort().at(-1)!;
    const from = [addDays(first, 1), addDays(last, -60)].sort().at(-1)!;
    const nights = dateRange(from, last);
    const lateness = new Map<number, number>();
    for (const r of rows) lateness.set(daysBetween(r.order, r.load), (lateness.get(daysBetween(r.order, r.load)) ?? 0) + 1);
    const maxLate = Math.max(...lateness.keys());
    const lookback = Number(/lookback_days: (\d+)/.exec(readFileSync(join(brightcart, 'project.yml'), 'utf8'))![1]);

    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${join(brightcart, 'target/index.html')}`);
    expect(await page.isVisible('#replay-page')).toBe(false);
    await page.click('#nav-replay');
    await expect.poll(() => page.isVisible('#replay-page')).toBe(true);
    expect(await page.isVisible('#graph')).toBe(false);
    expect(await page.textContent('#replay-page h2')).toBe(`Replay of daily_revenue, nights ${from}..${last}`);
    const grids = await page.$$eval('#replay-page svg.replay-grid g.grid', (gs) => gs.map((g) => ({
      lookback: Number(g.getAttribute('data-lookback')),
      rows: [...g.querySelectorAll('g.grid-row')].map((r) => ({ night: r.getAttribute('data-night'), cells: r.querySelectorAll('rect.cell').length, stale: Number(r.getAttribute('data-stale')) })),
      missed: g.querySelectorAll('rect.cell.missed').length,
    })));
    expect(grids.map((g) => g.lookback)).toEqual([lookback, maxLate]);
    for (const g of grids) {
      expect(g.rows.map((r) => r.night)).toEqual(nights);
      expect(g.rows.map((r) => r.cells)).toEqual(nights.map((n) => daysBetween(first, n) + 1));
    }
    // The required lookback misses nothing and leaves nothing stale; the project's misses the rows later than it.
    expect(grids[1]!.missed).toBe(0);
    expect(grids[1]!.rows.every((r) => r.stale === 0)).toBe(true);
    expect(grids[0]!.missed > 0).toBe(maxLate > lookback);
    const bars = await page.$$eval('#replay-page svg.lateness-chart rect.bar', (rs) => rs.map((r) => [Number(r.getAttribute('data-days')), Number(r.getAttribute('data-rows')), r.classList.contains('missed')]));
    expect(bars).toEqual(Array.from({ length: maxLate + 1 }, (_, d) => [d, lateness.get(d) ?? 0, d > lookback]));
    expect(await page.getAttribute('#replay-page svg.lateness-chart line.lookback', 'data-lookback')).toBe(String(lookback));
    await page.click('#nav-lineage');
    await expect.poll(() => page.isVisible('#graph')).toBe(true);
    expect(errors).toEqual([]);

    // A project without an incremental model with a time window: the page says so.
    const jafflePage = await browser!.newPage();
    await jafflePage.goto(`file://${join(jaffle, 'target/index.html')}#replay`);
    expect(await jafflePage.textContent('#replay-page .replay-none')).toContain('No incremental model with a time window');
    await jafflePage.close();
    await page.close();
  });

  it('docs serve serves the site on localhost', async () => {
    const { server, url } = await serveDocs(join(jaffle, 'target'), { port: 0 });
    try {
      const index = await fetch(url);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain('<svg id="graph"');
      expect((await fetch(`${url}../../etc/passwd`)).status).toBe(404);
      expect((await fetch(`${url}manifest.json`)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
