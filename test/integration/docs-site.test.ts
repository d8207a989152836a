import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDocs } from '../../src/docs/serve-docs.js';
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
