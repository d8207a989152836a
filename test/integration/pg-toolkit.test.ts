/**
 * The incremental toolkit on both engines, the same body (test/support/toolkit-story.ts):
 * the spec's figures to the cent on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { describePg, freshPgDatabase, type PgTestTarget } from '../support/pg-test-database.js';
import { toolkitStory } from '../support/toolkit-story.js';

describe('the toolkit on the story, SQLite', () => {
  toolkitStory(() => ({ kind: 'sqlite' }));
});

describePg('the toolkit on the story, PostgreSQL', () => {
  let target: PgTestTarget;
  beforeAll(async () => {
    target = await freshPgDatabase('toolkit');
  });
  afterAll(async () => {
    await target.drop();
  });
  toolkitStory(() => ({ kind: 'pg', target }));
});
