import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DocsNode, DocsSite } from '../../src/docs/docs-data.js';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * The docs site's snapshot page (issue 15: "the docs page of a snapshot shows a key's history"), and
 * docs blocks on the site: descriptions shown as text (nothing in them runs), `__overview__` on the
 * front page. One project, built three times as its seed changes, then `docs generate`.
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** 60 orders, all new on the first day; `changes` overrides some of them (null: the order is gone). */
function orders(changes: Record<number, string | null> = {}): string {
  const rows = Array.from({ length: 60 }, (_, i) => (i + 1 in changes ? changes[i + 1] : `${i + 1},new,2024-01-01`)).filter((r) => r !== null);
  return `id,status,updated_at\n${rows.join('\n')}\n`;
}

const SNAPSHOT = `{% snapshot orders_snapshot %}
{{ config(unique_key='id', strategy='timestamp', updated_at='updated_at') }}
select * from {{ ref('orders') }}
{% endsnapshot %}
`;

/** A key that is an expression, the check strategy, and deletions kept as rows (dbt_is_deleted). */
const STATUS_SNAPSHOT = `{% snapshot status_history %}
{{ config(unique_key="'order-' || id", strategy='check', check_cols=['status'], hard_deletes='new_record') }}
select id, status from {{ ref('orders') }}
{% endsnapshot %}
`;

const DOCS_MD = `{% docs __overview__ %}
Orders, kept as a type 2 history.
<script>window.ranOverview = true</script>
{% enddocs %}

{% docs order_history %}
Every version of an order: **one row per change**.
<img src="x" onerror="window.ranDescription = true">
{% enddocs %}
`;

const ID = 'snapshot.conformance.orders_snapshot';

describeEachEngine('the docs site: snapshots and docs blocks', (engine) => {
  let p: ConformanceProject;
  let site: DocsSite;
  let browser: Browser | undefined;

  beforeAll(async () => {
    p = conformanceProject({
      'seeds/orders.csv': orders(),
      'snapshots/orders_snapshot.sql': SNAPSHOT,
      'snapshots/status_history.sql': STATUS_SNAPSHOT,
      'snapshots/orders_snapshot.yml': "snapshots:\n  - name: orders_snapshot\n    description: \"{{ doc('order_history') }}\"\n    columns:\n      - name: status\n        description: where the order is\n",
      'models/docs.md': DOCS_MD,
    }, 'conformance', { engine });
    expect(p.dbt(['build']).code).toBe(0);
    p.write('seeds/orders.csv', orders({ 7: '7,shipped,2024-01-02', 42: '42,cancelled,2024-01-03' }));
    expect(p.dbt(['build']).code).toBe(0);
    p.write('seeds/orders.csv', orders({ 7: '7,delivered,2024-01-05', 42: '42,cancelled,2024-01-03', 60: null }));
    expect(p.dbt(['build']).code).toBe(0);
    const docs = p.dbt(['docs', 'generate']);
    expect(docs.code).toBe(0);
    const html = readFileSync(join(p.dir, 'target/index.html'), 'utf8');
    site = JSON.parse(/<script id="docs-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!) as DocsSite;
    if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a snapshot is a node of the site, with its yml description (a docs block), columns and history read from the warehouse', () => {
    const node = site.nodes.find((n) => n.id === ID) as DocsNode;
    expect(node).toMatchObject({ kind: 'snapshot', path: 'snapshots/orders_snapshot.sql', dependsOn: ['seed.conformance.orders'] });
    expect(node.description).toBe('Every version of an order: **one row per change**.\n<img src="x" onerror="window.ranDescription = true">');
    expect(node.columns.map((c) => [c.name, c.description])).toContainEqual(['status', 'where the order is']);
    expect(node.compiledSql?.trim()).toBe(`select * from "${engine === 'sqlite' ? 'main' : 'public'}"."orders"`);
    const history = node.history!;
    expect(history).toMatchObject({ keyColumns: ['id'], columns: ['id', 'status', 'updated_at'], validFrom: 'dbt_valid_from', validTo: 'dbt_valid_to', totalKeys: 60, limit: 50 });
    // Keys with more than one version first, then the rest in key order, at most 50.
    expect(history.keys.map((k) => k.key).slice(0, 4)).toEqual(['7', '42', '1', '2']);
    expect(history.keys).toHaveLength(50);
    expect(history.keys[0]!.versions.map((v) => [v.validFrom, v.validTo, ...v.values])).toEqual([
      ['2024-01-01', '2024-01-02', '7', 'new', '2024-01-01'],
      ['2024-01-02', '2024-01-05', '7', 'shipped', '2024-01-02'],
      ['2024-01-05', null, '7', 'delivered', '2024-01-05'],
    ]);
    // The rows are the warehouse's own.
    expect(p.rows('orders_snapshot', 'dbt_valid_from').filter((r) => r.id === 7).map((r) => r.status)).toEqual(['new', 'shipped', 'delivered']);
    expect(site.overview).toBe('Orders, kept as a type 2 history.\n<script>window.ranOverview = true</script>');
  });

  it('a key may be an SQL expression; with hard_deletes new_record a deleted key shows its dbt_is_deleted row', () => {
    const history = site.nodes.find((n) => n.id === 'snapshot.conformance.status_history')!.history!;
    expect(history).toMatchObject({ keyColumns: ["'order-' || id"], columns: ['id', 'status'], deletedColumn: 'dbt_is_deleted', totalKeys: 60 });
    const versions = (key: string) => history.keys.find((k) => k.key === key)!.versions.map((v) => [v.values[1], v.deleted, v.validTo === null ? 'current' : 'closed']);
    expect(history.keys.slice(0, 4).map((k) => k.key)).toEqual(['order-42', 'order-60', 'order-7', 'order-1']);
    expect(versions('order-42')).toEqual([['new', 'False', 'closed'], ['cancelled', 'False', 'current']]);
    expect(versions('order-60')).toEqual([['new', 'False', 'closed'], ['new', 'True', 'current']]);
    expect(versions('order-1')).toEqual([['new', 'False', 'current']]);
    // The check strategy stamps versions with the run's time, to the second: two runs may share one, so only the current version is certain.
    expect(versions('order-7')).toHaveLength(3);
    expect(versions('order-7')[2]).toEqual(['delivered', 'False', 'current']);
  });

  it.skipIf(!hasChromium)("the snapshot's page: pick a key, see each version's validity and values", async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${join(p.dir, 'target/index.html')}#${ID}`);
    await expect.poll(() => page.textContent('#details h2')).toBe('orders_snapshot');
    expect(await page.textContent('#details .history-count')).toBe('60 keys (id); the first 50 are here (at most 50), keys with more than one version first');
    const options = await page.$$eval('#details select.history-key option', (os) => os.map((o) => o.textContent));
    expect(options).toHaveLength(50);
    expect(options.slice(0, 3)).toEqual(['7 (3 versions)', '42 (2 versions)', '1 (1 version)']);
    const rows = () => page.$$eval('#details table.history tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(await page.$$eval('#details table.history thead th', (ths) => ths.map((th) => th.textContent))).toEqual(['dbt_valid_from', 'dbt_valid_to', 'id', 'status', 'updated_at']);
    expect(await rows()).toEqual([
      ['2024-01-01', '2024-01-02', '7', 'new', '2024-01-01'],
      ['2024-01-02', '2024-01-05', '7', 'shipped', '2024-01-02'],
      ['2024-01-05', 'current', '7', 'delivered', '2024-01-05'],
    ]);
    await page.selectOption('#details select.history-key', { label: '42 (2 versions)' });
    expect(await rows()).toEqual([
      ['2024-01-01', '2024-01-03', '42', 'new', '2024-01-01'],
      ['2024-01-03', 'current', '42', 'cancelled', '2024-01-03'],
    ]);
    // The description is shown as written, as text: its markup does not run.
    expect(await page.textContent('#details .description')).toContain('<img src="x" onerror="window.ranDescription = true">');
    expect(await page.evaluate(() => (window as unknown as { ranDescription?: boolean }).ranDescription)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  });

  it.skipIf(!hasChromium)('the front page shows the __overview__ block, as text', async () => {
    const page = await browser!.newPage();
    await page.goto(`file://${join(p.dir, 'target/index.html')}`);
    expect(await page.textContent('#details .overview')).toBe('Orders, kept as a type 2 history.\n<script>window.ranOverview = true</script>');
    expect(await page.evaluate(() => (window as unknown as { ranOverview?: boolean }).ranOverview)).toBeUndefined();
    await page.close();
  });
});
