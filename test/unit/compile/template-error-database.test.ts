import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { templateError } from '../../../src/compile/template-error.js';

describe('templateError: a statement the warehouse refused while rendering', () => {
  it("is dbt's Database Error, never the driver's class name", () => {
    let thrown: unknown;
    try {
      new Database(':memory:').prepare('select nosuch_fn()').get();
    } catch (err) {
      thrown = err;
    }
    // nunjucks wraps a render-time error with its class name in front of the message.
    const wrapped = new Error(`(models/m.sql)\n  ${(thrown as Error).name}: ${(thrown as Error).message}`);
    const error = templateError(wrapped, 'models/m.sql');
    expect(error.message).toBe('Database Error: no such function: nosuch_fn');
    expect(error.location.file).toBe('models/m.sql');
  });
});
