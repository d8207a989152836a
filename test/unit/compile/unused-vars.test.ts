import { describe, expect, it } from 'vitest';
import { unusedVarWarnings, varsReadIn } from '../../../src/compile/unused-vars.js';

describe('varsReadIn: the vars template text reads', () => {
  it('finds literal var() calls in every branch, quoted either way, with or without a default', () => {
    const text = `{% if is_incremental() %} where d >= '{{ var("start") }}' {% endif %} {{ var('as_of', none) }} {{ var ( 'x' ) }}`;
    expect(varsReadIn([text])).toEqual(new Set(['start', 'as_of', 'x']));
  });

  it('env_var() is not var(); text without var reads nothing', () => {
    expect(varsReadIn(["{{ env_var('HOME') }}", 'select 1'])).toEqual(new Set());
  });

  it('a computed name makes the answer unknown (null), so nothing is reported unused', () => {
    expect(varsReadIn(["{{ var('a') }}", '{% set n = "a" %}{{ var(n) }}'])).toBeNull();
  });
});

describe('unusedVarWarnings', () => {
  const used = new Set(['as_of', 'currency']);
  it('one warning per --vars key nothing reads, with the closest var the project reads', () => {
    expect(unusedVarWarnings({ asof: '2026-10-01', currency: 'EUR', frobnicate: 1 }, used, new Set([...used, 'region']))).toEqual([
      "var 'asof' is not used by any selected model; did you mean 'as_of'?",
      "var 'frobnicate' is not used by any selected model",
    ]);
  });

  it("a var read only by an unselected model is unused here, and the suggestion comes from the whole project", () => {
    expect(unusedVarWarnings({ regon: 'eu' }, used, new Set([...used, 'region']))).toEqual(["var 'regon' is not used by any selected model; did you mean 'region'?"]);
    expect(unusedVarWarnings({ region: 'eu' }, used, new Set([...used, 'region']))).toEqual(["var 'region' is not used by any selected model"]);
  });

  it("mini-dbt's own vars (as_of, start, end, lookback_days) are always read; unknown reads warn about nothing", () => {
    expect(unusedVarWarnings({ start: 1, end: 2, lookback_days: 3, as_of: 4 }, new Set(), new Set())).toEqual([]);
    expect(unusedVarWarnings({ asof: 1 }, null, null)).toEqual([]);
  });
});
