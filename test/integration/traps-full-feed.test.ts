import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backfill, loadSession, run, stale, type Session } from '../../src/index.js';
import { addDays, dateRange } from '../../src/feed/iso-date.js';
import type { FeedRow } from '../../src/feed/generate-feed.js';
import { REPO_ROOT } from '../support/example-project.js';
import { fullRebuild, replayNightly, rewriteDays, staleDays, type DayRevenue, type RevenueTable } from '../support/revenue-oracle.js';
import { runCli, runCliAsync } from '../support/run-cli.js';
import { lateRowsLine } from '../../src/cli/late-rows-line.js';
import { tableRows } from '../support/warehouse-rows.js';

/**
 * The traps of examples/ on the example's own feed: each trap's full-feed/
 * project reads the trap's models, the repository's macros and seeds/ in place
 * (relative paths with ..). The lesson's figures (shared spec, "The lesson's
 * figures") are checked as given; every other number is computed here from
 * the feed's rows by the plain-TypeScript oracle, never written down.
 * The nightly loops run in-process (the READMEs' 61 CLI runs take half a
 * minute); the commands whose output the READMEs quote run as the CLI, and
 * every quoted output line must be among what they print.
 */

/** The nights of the README loops: a full build as of 1 September, then one run a night. */
const FIRST = '2026-09-01';
const LAST = '2026-10-31';
const NIGHTS = dateRange(addDays(FIRST, 1), LAST);

/**
 * A temp copy laid out as the repository (macros/, seeds/, examples/<trap>/models
 * and full-feed/project.yml only: never a warehouse left in the tree), so the
 * project file's relative paths resolve as they do in the repo.
 */
function fullFeedProject(trap: string): { dir: string; feed: FeedRow[]; session: Session } {
  const root = mkdtempSync(join(tmpdir(), `mini-dbt-${trap}-full-feed-`));
  for (const entry of ['macros', 'seeds']) cpSync(join(REPO_ROOT, entry), join(root, entry), { recursive: true });
  const trapDir = join(root, 'examples', trap);
  cpSync(join(REPO_ROOT, 'examples', trap, 'models'), join(trapDir, 'models'), { recursive: true });
  cpSync(join(REPO_ROOT, 'examples', trap, 'full-feed', 'project.yml'), join(trapDir, 'full-feed', 'project.yml'));
  const dir = join(trapDir, 'full-feed');
  return { dir, feed: readFeed(join(root, 'seeds', 'raw_orders.csv')), session: loadSession({ projectDir: dir }) };
}

function readFeed(csv: string): FeedRow[] {
  const [, ...lines] = readFileSync(csv, 'utf8').trim().split('\n');
  return lines.map((l) => {
    const [load_date, order_id, order_date, status, amount] = l.split(',');
    return { load_date: load_date!, order_id: Number(order_id), order_date: order_date!, status: status as FeedRow['status'], amount: amount! };
  });
}

/** Seed, the full build as of 1 September, then every night of the README loop (and any rerun nights). */
async function nightlyLoop(session: Session, extraNights: readonly string[] = []) {
  await run({ session, command: 'seed', writeArtifacts: false });
  const first = await run({ session, vars: { as_of: FIRST }, fullRefresh: true, writeArtifacts: false });
  expect(first.exitCode).toBe(0);
  const nights = [];
  for (const night of [...NIGHTS, ...extraNights]) nights.push({ night, result: await run({ session, vars: { as_of: night }, writeArtifacts: false }) });
  return nights;
}

const cents = (n: number) => Math.round(n * 100);
const money = (c: number) => (c / 100).toFixed(2);
/** Orders and revenue (in cents) over a table's rows. */
function totals(rows: readonly { orders: unknown; revenue: unknown }[]): { orders: number; revenue: number } {
  return { orders: rows.reduce((s, r) => s + Number(r.orders), 0), revenue: rows.reduce((s, r) => s + cents(Number(r.revenue)), 0) };
}
const rowsOf = (dir: string, table: string) => tableRows(dir, table) as unknown as DayRevenue[];
const asMap = (rows: readonly DayRevenue[]): RevenueTable =>
  new Map(rows.map((r) => [r.order_date, { order_date: r.order_date, orders: r.orders, delivered_orders: r.delivered_orders, revenue: r.revenue }]));
const sortDays = (t: ReadonlyMap<string, DayRevenue>): RevenueTable => new Map([...t].sort(([a], [b]) => a.localeCompare(b)));
/** 1124 -> "1,124"; cents -> "439,004.18". */
const count = (n: number) => n.toLocaleString('en-US');
const amount = (c: number) => (c / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const landed = (feed: readonly FeedRow[], night: string) => feed.filter((r) => r.load_date === night);
const deliveredCents = (rows: readonly FeedRow[]) => rows.filter((r) => r.status === 'delivered').reduce((s, r) => s + cents(Number(r.amount)), 0);

/** The trap README's section "On the example's feed", its lines joined by spaces (prose wraps anywhere). */
function readmeSection(trap: string): { text: string; flat: string; outputLines: string[] } {
  const readme = readFileSync(join(REPO_ROOT, 'examples', trap, 'README.md'), 'utf8');
  const at = readme.indexOf("## On the example's feed");
  expect(at).toBeGreaterThan(0);
  const text = readme.slice(at);
  // The lines of its output blocks (fenced without a language), "..." left out.
  const outputLines: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = fence === null ? line.slice(3) : null;
    else if (fence === '' && line.trim() !== '' && line.trim() !== '...') outputLines.push(line.trim());
  }
  return { text, flat: text.replace(/\s+/g, ' '), outputLines };
}

/** examples/README.md, its lines joined by spaces: its table repeats each trap's figures. */
const examplesReadme = () => readFileSync(join(REPO_ROOT, 'examples', 'README.md'), 'utf8').replace(/\s+/g, ' ');

/** The README's `show --inline "..."` query, run as it is written there. */
const inlineQuery = (text: string) => /--inline "([^"]+)"/.exec(text)![1]!;

/** Every quoted output line is printed by one of the commands (a line ending "(exact: ...)" up to there). */
function expectPrinted(quoted: readonly string[], printed: string) {
  for (const line of quoted) expect(printed, line).toContain(line.replace(/ \(exact: \.\.\.\)$/, ''));
}

describe('trap 1 on the example\'s feed: adding each night\'s rows to the day totals', () => {
  it('ends with 1,124 orders and 439,004.18 against the full rebuild\'s 1,032 and 399,592.98 (the lesson\'s figures)', async () => {
    const { dir, feed, session } = fullFeedProject('trap-1-upsert-adds-tonight');
    const readme = readmeSection('trap-1-upsert-adds-tonight');
    // The warehouse is the project folder's own, not the repository root's.
    expect(session.project.databasePath).toBe(join(dir, 'warehouse.db'));
    const nights = await nightlyLoop(session);
    expect(nights.every((n) => n.result.exitCode === 0)).toBe(true);
    // With the required lookback no night leaves a late row behind (the loop prints nothing at warn).
    expect(nights.flatMap((n) => n.result.results.map((r) => r.lateRowsNotApplied && lateRowsLine(r.lateRowsNotApplied)).filter(Boolean))).toEqual([]);

    const truth = fullRebuild(feed);
    // The lesson's figures.
    expect(totals([...truth.values()])).toEqual({ orders: 1032, revenue: 39959298 });
    expect(totals(rowsOf(dir, 'daily_revenue_upsert'))).toEqual({ orders: 1124, revenue: 43900418 });
    expect(asMap(rowsOf(dir, 'daily_revenue'))).toEqual(truth);

    // The upsert, simulated from the rows: every row ever landed is one more order, every delivered amount stays.
    const upsert = new Map<string, DayRevenue>();
    for (const row of feed) {
      const day = upsert.get(row.order_date) ?? { order_date: row.order_date, orders: 0, delivered_orders: 0, revenue: 0 };
      const delivered = row.status === 'delivered';
      upsert.set(row.order_date, {
        order_date: row.order_date,
        orders: day.orders + 1,
        delivered_orders: day.delivered_orders + (delivered ? 1 : 0),
        revenue: (cents(day.revenue) + (delivered ? cents(Number(row.amount)) : 0)) / 100,
      });
    }
    expect(asMap(rowsOf(dir, 'daily_revenue_upsert'))).toEqual(sortDays(upsert));
    const staleUpsert = staleDays(upsert, truth);
    expect(stale({ session, model: 'daily_revenue_upsert' }).stale).toEqual(staleUpsert);
    expect(stale({ session, model: 'daily_revenue' }).stale).toEqual([]);

    // The README's commands print what it quotes (read-only: run side by side).
    const [shown, upsertReport, rightReport] = await Promise.all([
      runCliAsync(['show', '-q', '--project-dir', dir, '--inline', inlineQuery(readme.text)]),
      runCliAsync(['stale', 'daily_revenue_upsert', '--project-dir', dir]),
      runCliAsync(['stale', 'daily_revenue', '--project-dir', dir]),
    ]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/\| daily_revenue_upsert \| +1124 \| 439,004\.18 \|/);
    expect(shown.stdout).toMatch(/\| daily_revenue +\| +1032 \| 399,592\.98 \|/);
    expectPrinted(readme.outputLines, shown.stdout + upsertReport.stdout);
    expect(upsertReport.stdout).toContain(`daily_revenue_upsert: ${staleUpsert.length} of ${truth.size} partitions stale`);
    expect(rightReport.stdout).toContain(`daily_revenue: 0 of ${truth.size} partitions stale`);
    const sept3 = upsert.get('2026-09-03')!;
    expect(upsertReport.stdout).toContain(`2026-09-03  orders ${sept3.orders} -> 15 (-1), delivered_orders ${sept3.delivered_orders} -> 14 (-1), revenue ${money(cents(sept3.revenue))} -> 6275.22 (-716.20)`);
    expect(readme.flat).toContain(`the ${count(feed.length - totals([...truth.values()]).orders)} later versions of an order`);
    expect(readme.flat).toContain(`\`stale\` finds ${staleUpsert.length} of ${truth.size} days wrong`);
    expect(examplesReadme()).toContain('| 1 | the upsert ends with 1,124 orders and 439,004.18, the full rebuild\'s 1,032 and 399,592.98 (the lesson\'s figures); ' + `${staleUpsert.length} of ${truth.size} days wrong |`);
    expect(readme.flat).toContain(`3 September has ${sept3.orders} orders in the upsert: 15 real ones plus the refund of order 50044`);

    // A rerun of the last night adds that night's rows once more; the right model does not move.
    await run({ session, vars: { as_of: LAST }, writeArtifacts: false });
    const tonight = landed(feed, LAST);
    const rerun = { orders: 1124 + tonight.length, revenue: 43900418 + deliveredCents(tonight) };
    expect(totals(rowsOf(dir, 'daily_revenue_upsert'))).toEqual(rerun);
    expect(asMap(rowsOf(dir, 'daily_revenue'))).toEqual(truth);
    expect(readme.flat).toContain(`adds its ${tonight.length} rows again (${count(rerun.orders)} orders, ${amount(rerun.revenue)})`);
  });
});

describe('trap 2 on the example\'s feed: a backfill with the old as-of date', () => {
  it('nightly(3), then a backfill of 2026-09-03..2026-10-26 as of 2026-10-01 leaves 32 days still stale (the lesson\'s figure)', async () => {
    const { dir, feed, session } = fullFeedProject('trap-2-backfill-old-as-of');
    const readme = readmeSection('trap-2-backfill-old-as-of');
    expect(session.project.databasePath).toBe(join(dir, 'warehouse.db'));
    const nights = await nightlyLoop(session);
    const lateLines = nights.map((n) => n.result.results[0]!.lateRowsNotApplied).map((l) => l && lateRowsLine(l)).filter((l): l is string => l !== undefined);
    expect(readme.flat).toContain(`prints one line, ${lateLines.length} of them`);
    expect(readme.outputLines).toContain(lateLines[0]);

    const truth = fullRebuild(feed);
    const nightly = replayNightly(feed, { from: NIGHTS[0]!, to: LAST, lookback: 3 });
    expect(asMap(rowsOf(dir, 'daily_revenue'))).toEqual(nightly.table);
    // The lesson's nightly(3): 41 stale days, first 3 September, last 26 October.
    const before = stale({ session, model: 'daily_revenue' }).stale;
    expect(before).toEqual(nightly.finalStale);
    expect(before).toHaveLength(41);
    expect([before[0], before.at(-1)]).toEqual(['2026-09-03', '2026-10-26']);

    // The trap: the range of the right backfill, with the old as-of (the README's command).
    const old = runCli(['run', '--project-dir', dir, '--select', 'daily_revenue', '--vars', '{start: 2026-09-03, end: 2026-10-26, as_of: 2026-10-01}']);
    expect(old.code).toBe(0);
    // mini-dbt rewrites the days that have rows landed by 1 October; the later ones keep their nightly rows.
    const rewritten = rewriteDays(nightly.table, feed, '2026-10-01', '2026-09-03', '2026-10-26');
    const writtenDays = [...fullRebuild(feed, '2026-10-01').keys()].filter((d) => d >= '2026-09-03');
    expect(old.stdout).toContain(`wrote ${writtenDays.length} partitions 2026-09-03..${writtenDays.at(-1)}; as of 2026-10-01`);
    expect(asMap(rowsOf(dir, 'daily_revenue'))).toEqual(rewritten);
    // The lesson's figure: 32 days still stale.
    const still = stale({ session, model: 'daily_revenue' }).stale;
    expect(still).toHaveLength(32);
    expect(still).toEqual(staleDays(rewritten, truth));
    // The lesson's form, delete the range and insert what had landed by then, leaves the same 32.
    const deleted = new Map([...nightly.table].filter(([d]) => d < '2026-09-03' || d > '2026-10-26'));
    expect(staleDays(rewriteDays(deleted, feed, '2026-10-01', '2026-09-03', '2026-10-26'), truth)).toHaveLength(32);
    const staleReport = runCli(['stale', 'daily_revenue', '--project-dir', dir]);

    // How the README accounts for the 32, from the rows.
    const fixed = before.filter((d) => !still.includes(d));
    const broken = still.filter((d) => !before.includes(d));
    const untouched = still.filter((d) => d > '2026-10-01');
    const keptSeptember = still.filter((d) => before.includes(d) && d <= '2026-10-01');
    expect(untouched).toEqual(dateRange('2026-10-02', '2026-10-26').filter((d) => !writtenDays.includes(d)));
    expect(readme.flat).toContain(`The old as-of fixed the ${fixed.length} days whose late refunds had landed by 1 October`);
    expect(readme.flat).toContain(`the ${keptSeptember.length} September days whose refunds landed after it, and the ${untouched.length} days from 2 to 26 October`);
    expect(readme.flat).toContain(`It also broke ${broken.length} days that were right: 30 September and 1 October`);
    expect(broken).toEqual(['2026-09-30', '2026-10-01']);
    expect(examplesReadme()).toContain(`| 2 | nightly(3) leaves ${before.length} days stale; the backfill of 2026-09-03..2026-10-26 with the old as-of 2026-10-01 leaves ${still.length} still stale`);

    // The fix: the same range with everything landed so far.
    const fix = await backfill({ session, model: 'daily_revenue', start: '2026-09-03', end: '2026-10-26', reason: 'refunds landed after the 3-day lookback; the first try used the old as-of' });
    expect(fix.exitCode).toBe(0);
    const range = fix.ranges[0]!;
    expect(range.status).toBe('success');
    const inRange = (t: RevenueTable) => [...t.values()].filter((d) => d.order_date >= '2026-09-03' && d.order_date <= '2026-10-26');
    const sums = (rows: DayRevenue[]) => ({ orders: totals(rows).orders, delivered: rows.reduce((s, r) => s + r.delivered_orders, 0), revenue: totals(rows).revenue });
    const [b, a] = [sums(inRange(rewritten)), sums(inRange(truth))];
    const rawRows = feed.filter((r) => r.order_date >= '2026-09-03' && r.order_date <= '2026-10-26').length;
    expect(range).toMatchObject({ partitions: inRange(truth).map((d) => d.order_date), rawRows });
    const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
    expectPrinted(
      [
        `2026-09-03..2026-10-26 [OK]: ${range.partitions.length} partition(s), ${range.rows} row(s) staged from ${rawRows} raw row(s)`,
        `before: ${inRange(rewritten).length} row(s), orders ${b.orders}, delivered_orders ${b.delivered}, revenue ${money(b.revenue)}`,
        `after:  ${inRange(truth).length} row(s), orders ${a.orders} (${signed(a.orders - b.orders)}), delivered_orders ${a.delivered} (${signed(a.delivered - b.delivered)}), revenue ${money(a.revenue)} (${signed(Number(money(a.revenue - b.revenue)))})`,
      ],
      readme.text,
    );
    expect(asMap(rowsOf(dir, 'daily_revenue'))).toEqual(truth);
    expect(stale({ session, model: 'daily_revenue' }).stale).toEqual([]);
    expect(readme.flat).toContain(`${range.partitions.length} partitions rewritten, and the table equals the full rebuild`);
    // Every other quoted line: the old-as-of run's, the stale reports' (the last one after the fix).
    const finalReport = runCli(['stale', 'daily_revenue', '--project-dir', dir]);
    expectPrinted(readme.outputLines.filter((l) => !/^(late rows not applied|2026-09-03\.\.2026-10-26 \[OK\]|before:|after:)/.test(l)), old.stdout + staleReport.stdout + finalReport.stdout + `daily_revenue: ${before.length} of ${truth.size} partitions stale`);
  });
});

describe('trap 3 on the example\'s feed: inserting without deleting', () => {
  it('append piles up every window, the keyed append fails most nights and misses late rows, delete+insert equals the full rebuild', async () => {
    const { dir, feed, session } = fullFeedProject('trap-3-insert-without-delete');
    const readme = readmeSection('trap-3-insert-without-delete');
    expect(session.project.databasePath).toBe(join(dir, 'warehouse.db'));
    const lookback = Number(session.project.vars.lookback_days);
    // The README loop, then the last night once more (a rerun).
    const nights = await nightlyLoop(session, [LAST]);
    const truth = fullRebuild(feed);

    // What each model must hold, from the rows: the first build as of 1 September, then each night's window as of that night.
    const windowOf = (night: string) => rewriteDays(new Map(), feed, night, addDays(night, -lookback), night);
    const append: DayRevenue[] = [...fullRebuild(feed, FIRST).values()];
    let keyed: RevenueTable = fullRebuild(feed, FIRST);
    const failed: string[] = [];
    for (const { night } of nights) {
      const fresh = windowOf(night);
      append.push(...fresh.values());
      if ([...fresh.keys()].some((d) => keyed.has(d))) failed.push(night);
      else keyed = sortDays(new Map([...keyed, ...fresh]));
    }
    const sortRows = (rows: readonly DayRevenue[]) =>
      [...rows].map((r) => ({ ...r })).sort((a, b) => a.order_date.localeCompare(b.order_date) || a.orders - b.orders || a.delivered_orders - b.delivered_orders || a.revenue - b.revenue);

    // daily_revenue_append: every day once per run whose window covered it.
    expect(sortRows(rowsOf(dir, 'daily_revenue_append'))).toEqual(sortRows(append));
    const appendStale = stale({ session, model: 'daily_revenue_append' });
    expect(appendStale.stale).toEqual([...truth.keys()]);
    expect(appendStale.totals).toMatchObject({ live: { rows: append.length }, rebuilt: { rows: truth.size } });
    expect(appendStale.backfill_command).toBe('mini-dbt run --select daily_revenue_append --full-refresh');

    // daily_revenue_append_keyed: a night fails whenever its window overlaps a day already in the table.
    const keyedStatus = (n: (typeof nights)[number]) => n.result.results.find((r) => r.name === 'daily_revenue_append_keyed')!.status;
    expect(nights.filter((n) => keyedStatus(n) === 'error').map((n) => n.night)).toEqual(failed);
    expect(nights.filter((n) => n.result.exitCode !== 0).map((n) => n.night)).toEqual(failed);
    expect(asMap(rowsOf(dir, 'daily_revenue_append_keyed'))).toEqual(keyed);
    const keyedStale = staleDays(keyed, truth);
    expect(stale({ session, model: 'daily_revenue_append_keyed' }).stale).toEqual(keyedStale);

    // daily_revenue: right after the loop and after the rerun.
    expect(asMap(rowsOf(dir, 'daily_revenue'))).toEqual(truth);
    expect(stale({ session, model: 'daily_revenue' }).stale).toEqual([]);

    // The README's commands print what it quotes (read-only: run side by side).
    const [shown, appendCli, keyedCli, rightCli] = await Promise.all([
      runCliAsync(['show', '-q', '--project-dir', dir, '--limit', '-1', '--inline', inlineQuery(readme.text)]),
      runCliAsync(['stale', 'daily_revenue_append', '--project-dir', dir]),
      runCliAsync(['stale', 'daily_revenue_append_keyed', '--project-dir', dir]),
      runCliAsync(['stale', 'daily_revenue', '--project-dir', dir]),
    ]);
    expect(shown.code).toBe(0);
    const cells = (s: string) => s.replace(/ +/g, ' ');
    // show prints a column of amounts as dbt's agate does: thousands grouped, the column's two decimals on every value.
    const amount = (n: number) => Number(money(n)).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const row = (label: string, rows: readonly DayRevenue[]) => `| ${label} | ${rows.length} | ${totals(rows).orders} | ${amount(totals(rows).revenue)} |`;
    expect(cells(shown.stdout)).toContain(row('append', append));
    expect(cells(shown.stdout)).toContain(row('append_keyed', [...keyed.values()]));
    expect(cells(shown.stdout)).toContain(row('delete+insert', [...truth.values()]));
    expectPrinted(readme.outputLines, shown.stdout);
    const copies = (day: string) => append.filter((r) => r.order_date === day).length;
    expect(appendCli.stdout).toContain(`daily_revenue_append: ${truth.size} of ${truth.size} partitions stale`);
    expect(keyedCli.stdout).toContain(`daily_revenue_append_keyed: ${keyedStale.length} of ${truth.size} partitions stale`);
    expect(rightCli.stdout).toContain(`daily_revenue: 0 of ${truth.size} partitions stale`);

    // The README's prose, from the rows.
    const passed = nights.filter((n) => keyedStatus(n) !== 'error').map((n) => n.night);
    const allTotals = totals(append);
    const keyedTotals = totals([...keyed.values()]);
    const mostCopies = [...truth.keys()].map(copies);
    expect(readme.flat).toContain(`prints \`exit 1\` for ${failed.length} of the ${nights.length} nights`);
    expect(readme.flat).toContain(`every night whose ${lookback + 1}-day window overlaps`);
    expect(readme.flat).toContain(`only every ${lookback + 1}th night gets through`);
    expect(passed.map((n) => n.slice(5))).toEqual(['09-13', '09-25', '10-07', '10-19', '10-31']);
    expect(readme.flat).toContain('(13 and 25 September, 7, 19 and 31 October; the rerun of 31 October fails)');
    expect(failed.at(-1)).toBe(LAST);
    expect(readme.flat).toContain(`holds ${append.length} rows for ${truth.size} days`);
    expect(mostCopies.filter((c) => c === copies(FIRST)).length).toBeGreaterThan(truth.size / 2);
    expect(readme.flat).toContain(`${copies(FIRST)} copies for most days, ${copies('2026-10-20')} for 20 October`);
    expect(readme.flat).toContain(`down to ${copies(LAST)} for 31 October`);
    expect(readme.flat).toContain(`it says ${count(allTotals.orders)} orders and ${amount(allTotals.revenue)} instead of ${count(totals([...truth.values()]).orders)} and ${amount(totals([...truth.values()]).revenue)}`);
    expect(readme.flat).toContain(`\`stale\` reports all ${truth.size} days (\`${FIRST} live has ${copies(FIRST)} row(s), a rebuild 1\`)`);
    expect(appendCli.stdout).toContain(`${FIRST}  live has ${copies(FIRST)} row(s), a rebuild 1`);
    expect(readme.flat).toContain(`\`stale\` reports ${keyedStale.length} of ${truth.size} days`);
    const firstKeyed = /`(2026-09-01 {2}orders [^`]+)`/.exec(readme.text.replace(/\n\s*/g, ' ').replace(/2026-09-01 orders/, '2026-09-01  orders'))![1]!;
    expect(keyedCli.stdout).toContain(firstKeyed);
    expect(readme.flat).toContain(`${count(keyedTotals.orders)} orders instead of ${count(totals([...truth.values()]).orders)}`);
    expect(readme.flat).toContain(`\`stale\` finds 0 of ${truth.size}, after the rerun too`);
    expect(examplesReadme()).toContain(
      `| 3 | append: ${append.length} rows for ${truth.size} days (${count(allTotals.orders)} orders, ${amount(allTotals.revenue)}); ` +
        `the keyed append fails ${failed.length} of ${nights.length} nights and ends ${keyedStale.length} days stale; delete+insert: 0 |`,
    );
  });
});
