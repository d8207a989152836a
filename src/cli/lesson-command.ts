import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replay } from '../api/replay.js';
import { lessonProject, LESSON_MODEL, LESSON_SEED } from '../api/lesson-project.js';
import { feedTotals, monthTotals, storyNights } from '../api/lesson-figures.js';
import { lateness } from '../api/lateness.js';
import { loadSession } from '../api/session.js';
import { feedToCsv, generateFeed } from '../feed/generate-feed.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { askGuess } from './lesson-guess.js';
import { runShown } from './lesson-shell.js';
import { colors } from './terminal.js';
import { out } from './lesson-text.js';

export interface LessonFlags extends CommonFlags {
  /** Run straight through without asking for predictions (scripts). */
  yes?: boolean;
  /** Keep the scratch project in this new folder. */
  keep?: string;
}

const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = (n: number) => n.toLocaleString('en-US');

function heading(n: number, title: string): void {
  out();
  out(colors.bold(`== ${n}. ${title}`));
}

function say(...text: string[]): void {
  for (const t of text) out(t);
}

/**
 * `mini-dbt lesson`: the story, step by step, on a scratch copy of the
 * example project. Each step says what is about to happen, runs the real
 * command and shows its output, and asks for a prediction (on a terminal)
 * before revealing the figure: the four check-yourself questions, then the
 * rule (the nightly table equals a full rebuild exactly when the lookback is
 * at least the longest lateness).
 */
export async function lessonCommand(flags: LessonFlags): Promise<number> {
  const interactive = !flags.yes && Boolean(process.stdin.isTTY) && Boolean(process.stdout.isTTY);
  const lesson = lessonProject({ ...sessionOptions(flags), keep: flags.keep });
  const dir = lesson.dir;
  try {
    say(colors.bold('The Brightcart lesson: why the nightly revenue table drifts from finance, and how to fix only what drifted.'),
      `Every command below runs on a scratch copy of this project in ${dir}; your own warehouse is not touched.`,
      interactive ? 'Before each figure you are asked to predict it (Enter skips).' : 'Running straight through (no questions asked: --yes, or not a terminal).');

    heading(1, 'The feed: orders as they landed');
    say('raw_orders holds one row per version of an order, in the night it landed (load_date). A refund is a new',
      'row for an old order, landing days after the order. Load it (a seed is a CSV loaded as a table):');
    runShown(['seed'], dir, { maxLines: 3, tail: true });
    const feed = feedTotals(lesson.session);
    const { from, to, firstDay } = storyNights(lesson.database, lesson.session.manifest.seeds.get(LESSON_SEED)!.alias);
    say(`${count(feed.rows)} rows for ${count(feed.orders)} orders. How late do rows land? (lateness = load_date - order_date, in days)`);
    runShown(['lateness', LESSON_SEED], dir, { maxLines: 24 });
    const late = lateness({ session: lesson.session, name: LESSON_SEED, lookback: 3 });

    heading(2, 'Finance\'s figure and the warehouse\'s');
    say('A full rebuild computes every day from all the rows landed so far: what finance counts.');
    runShown(['run', '--full-refresh'], dir, { maxLines: 3, tail: true });
    const full = monthTotals(lesson.database);
    say('The nightly job instead rewrites only the last few days: on night R, R-3 .. R (a lookback of 3 days).',
      `Replay it night by night, ${from} to ${to}, on a copy (the table starts as a full build of ${firstDay}):`);
    const nightly3 = join(dir, 'nightly-lookback-3.db');
    runShown(['replay', LESSON_MODEL, '--from', from, '--to', to, '--keep', nightly3], dir, { maxLines: 6, tail: true });
    const warehouse = monthTotals(nightly3);
    const first = full[0]!;
    const firstNightly = warehouse.find((m) => m.month === first.month)!;
    await askGuess(`${first.month}: finance's (full rebuild) revenue is ${money(first.revenue)}. Is the nightly table's figure higher or lower?`, firstNightly.revenue > first.revenue ? 'higher' : firstNightly.revenue < first.revenue ? 'lower' : 'the same', interactive);
    for (const m of full) {
      const n = warehouse.find((w) => w.month === m.month);
      say(`  ${m.month}: full rebuild ${count(m.orders)} orders, ${money(m.revenue)}; nightly ${count(n?.orders ?? 0)} orders, ${money(n?.revenue ?? 0)}`);
    }

    heading(3, 'Question 1: a refund 5 days late, with a 3-day lookback');
    say('The refund lands on night D+5. That night rewrites D+2 .. D+5: the refund\'s own day D is outside the window.');
    await askGuess('Does the nightly run error, or warn, when a refund lands outside its window? (yes/no)', 'no', interactive);
    say('Nothing errors: the day silently keeps its old revenue. The example has a unit test that states exactly this',
      '(models/marts/daily_revenue.yml: the model run on a handful of rows with is_incremental() true):');
    runShown(['test', '--select', 'test_type:unit'], dir, { maxLines: 4, tail: true });
    const replay3 = await replay({ projectDir: dir, database: lesson.database, model: LESSON_MODEL, from, to, compareRequired: false });
    await askGuess(`After the ${replay3.nights.length} nightly runs, how many of the ${full.length === 0 ? '' : 'table\'s '}days differ from a full rebuild?`, String(replay3.final_stale.length), interactive);
    say(`${late.missed.rows} rows landed more than 3 days late (on ${late.missed.days} days): each of those days kept a number a full rebuild would change.`);

    heading(4, 'Question 2: why recompute whole days instead of adding tonight\'s rows?');
    say('Adding each night\'s landed rows to the day totals (an upsert that does +=) looks cheaper. But a refund row is a new',
      'version of an old order: adding it counts the order twice and never takes its revenue out.');
    await askGuess(`With +=, how many orders would the table count in total? (the feed has ${count(feed.orders)} orders)`, count(feed.upsertOrders), interactive);
    const fullRevenue = full.reduce((s, m) => s + m.revenue, 0);
    say(`  +=: ${count(feed.upsertOrders)} orders and ${money(feed.upsertRevenue)} revenue; a full rebuild: ${count(feed.orders)} orders and ${money(fullRevenue)}.`,
      'So each run recomputes whole days from the latest version of every order (delete those days, insert them again),',
      'which also makes a rerun harmless. examples/trap-1-upsert-adds-tonight shows the trap as a project.');

    heading(5, `Question 3: ${replay3.final_stale.length} stale days: is a full rebuild needed?`);
    say('No: rewrite only the stale days, with everything landed by today. First find them (stale compares the table with a',
      'full rebuild, day by day):');
    runShown(['stale', LESSON_MODEL, '--database', nightly3], dir, { maxLines: 8 });
    const firstStale = replay3.final_stale[0];
    const lastStale = replay3.final_stale[replay3.final_stale.length - 1];
    const span = firstStale && lastStale ? Math.round((Date.parse(lastStale) - Date.parse(firstStale)) / 86_400_000) + 1 : 0;
    await askGuess(`One backfill from the first stale day to the last fixes them all. How many days does it rewrite?`, String(span), interactive);
    runShown(['backfill', LESSON_MODEL, '--start', firstStale ?? from, '--end', lastStale ?? to, '--database', nightly3, '--reason', 'lesson: late refunds outside the 3-day window'], dir, { maxLines: 8, tail: true });
    runShown(['stale', LESSON_MODEL, '--database', nightly3], dir, { maxLines: 3 });

    heading(6, 'Question 4: after raising the lookback to 11, can the table still go stale?');
    const longest = late.required_lookback;
    say(`This feed's longest lateness is ${longest} days, so a lookback of ${longest} catches every row here. A feed with a later refund`,
      'is another story: the generator\'s seed 2027 draws one whose refunds land up to two weeks late. Same models, lookback 11:');
    const other = lessonProject({ projectDir: dir, keep: undefined });
    try {
      writeFileSync(join(other.dir, lesson.session.manifest.seeds.get(LESSON_SEED)!.file.path), feedToCsv(generateFeed({ seed: 2027 })));
      runShown(['seed'], other.dir, { maxLines: 1, tail: true });
      const otherSession = loadSession({ projectDir: other.dir, database: other.database });
      const otherLate = lateness({ session: otherSession, name: LESSON_SEED, lookback: 11 });
      const otherRange = storyNights(other.database, otherSession.manifest.seeds.get(LESSON_SEED)!.alias);
      const replay11 = await replay({ projectDir: other.dir, database: other.database, model: LESSON_MODEL, from: otherRange.from, to: otherRange.to, vars: { lookback_days: 11 }, compareRequired: false });
      await askGuess(`On the seed-2027 feed (longest lateness ${otherLate.required_lookback} days), how many days end up stale with a lookback of 11?`, String(replay11.final_stale.length), interactive);
      say(`  ${otherLate.missed.rows} rows land more than 11 days late there: a lookback is only enough for the feed it was chosen on.`);
    } finally {
      other.dispose();
    }

    heading(7, 'The rule');
    const below = await replay({ projectDir: dir, database: lesson.database, model: LESSON_MODEL, from, to, vars: { lookback_days: longest - 1 }, compareRequired: false });
    const at = await replay({ projectDir: dir, database: lesson.database, model: LESSON_MODEL, from, to, vars: { lookback_days: longest }, compareRequired: false });
    say(`The nightly table equals a full rebuild exactly when the lookback L is at least the longest lateness M (here M = ${longest}):`,
      `  L = ${longest - 1}: ${below.final_stale.length} stale day${below.final_stale.length === 1 ? '' : 's'} after the replay;  L = ${longest}: ${at.final_stale.length}.`,
      'A longer lookback costs more each night (more days rewritten); a shorter one needs backfills. mini-dbt lateness',
      'measures M on your feed, stale finds what drifted, backfill rewrites exactly that.');
    if (flags.keep !== undefined) say('', `The scratch project is kept in ${dir}.`);
    return 0;
  } finally {
    lesson.dispose();
  }
}
