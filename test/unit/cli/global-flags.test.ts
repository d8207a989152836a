import { afterEach, describe, expect, it } from 'vitest';
import { parseWarnErrorOptions, warnErrorFromOptions } from '../../../src/cli/global-flags.js';
import { formatEvent, setOutput } from '../../../src/cli/terminal.js';
import { emptySubquery, eventTimeRelation } from '../../../src/compile/event-time-filter.js';

describe('--warn-error-options', () => {
  it("reads dbt's include/exclude (and 1.10's error/warn) as YAML or JSON", () => {
    expect(parseWarnErrorOptions('{include: all}')).toEqual({ include: 'all', exclude: [], silence: [] });
    expect(parseWarnErrorOptions('{"include": "*", "exclude": ["NoNodesForSelectionCriteria"]}')).toEqual({ include: 'all', exclude: ['NoNodesForSelectionCriteria'], silence: [] });
    expect(parseWarnErrorOptions('{error: [LogTestResult], warn: [], silence: [Deprecations]}')).toEqual({ include: ['LogTestResult'], exclude: [], silence: ['Deprecations'] });
  });

  it('makes a test WARN a failure when it includes all or LogTestResult and does not exclude it', () => {
    expect(warnErrorFromOptions(undefined)).toBe(false);
    expect(warnErrorFromOptions(parseWarnErrorOptions('{include: all}'))).toBe(true);
    expect(warnErrorFromOptions(parseWarnErrorOptions('{include: [LogTestResult]}'))).toBe(true);
    expect(warnErrorFromOptions(parseWarnErrorOptions('{include: [NoNodesForSelectionCriteria]}'))).toBe(false);
    expect(warnErrorFromOptions(parseWarnErrorOptions('{include: all, exclude: [LogTestResult]}'))).toBe(false);
  });

  it('refuses what is not a mapping of those keys, naming the problem', () => {
    expect(() => parseWarnErrorOptions('[all]')).toThrow('must be a mapping');
    expect(() => parseWarnErrorOptions('{includes: all}')).toThrow("Unknown key 'includes'");
    expect(() => parseWarnErrorOptions('{include: al}')).toThrow(`'include' must be 'all', '*' or a list of event names, got "al"`);
    expect(() => parseWarnErrorOptions('{exclude: all}')).toThrow("'exclude' must be a list of event names");
    expect(() => parseWarnErrorOptions('{include: [')).toThrow('not valid YAML or JSON');
  });
});

describe('log lines', () => {
  afterEach(() => setOutput({ level: 'info', format: 'text' }));

  it('are filtered by level and formatted as text, debug or JSON', () => {
    setOutput({ level: 'warn', format: 'text' });
    expect(formatEvent('hello', 'info', 'Note')).toBeUndefined();
    expect(formatEvent('careful', 'warn', 'Note')).toMatch(/^\d\d:\d\d:\d\d {2}careful$/);
    setOutput({ level: 'none' });
    expect(formatEvent('boom', 'error', 'Note')).toBeUndefined();
    setOutput({ level: 'debug', format: 'debug' });
    expect(formatEvent('x', 'debug', 'Note')).toMatch(/^\d\d:\d\d:\d\d\.\d{3} \[debug\] \[MainThread\]: x$/);
    setOutput({ level: 'info', format: 'json' });
    const event = JSON.parse(formatEvent('\u001b[32mOK\u001b[39m', 'info', 'LogModelResult')!) as { info: Record<string, unknown> };
    expect(event.info).toMatchObject({ name: 'LogModelResult', level: 'info', msg: 'OK', thread: 'MainThread' });
    expect(String(event.info.ts)).toMatch(/Z$/);
  });
});

describe('--empty rendering', () => {
  it("is dbt's limit-0 subquery, inside a microbatch batch's filter", () => {
    expect(emptySubquery('"orders"')).toBe('(select * from "orders" where false limit 0)');
    expect(String(eventTimeRelation('orders', 'table', undefined, undefined, true))).toBe('(select * from "main"."orders" where false limit 0)');
    expect(String(eventTimeRelation('orders', 'table', undefined, undefined, false))).toBe('"main"."orders"');
    const batch = { label: '2024-01-01', start: '2024-01-01', end: '2024-01-02' };
    expect(String(eventTimeRelation('orders', 'table', 'day', batch, true))).toBe(`(select * from (select * from "main"."orders" where false limit 0) where "day" >= '2024-01-01' and "day" < '2024-01-02')`);
    // .render() is still the bare relation
    expect(eventTimeRelation('orders', 'table', 'day', batch, true).render()).toBe('"main"."orders"');
  });
});
