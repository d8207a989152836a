/**
 * Differential test: every case in test/fixtures/jinja-cases/cases.json renders through mini-dbt's
 * Jinja environment exactly as Python's Jinja2 rendered it (expected.json, written by
 * scripts/record-jinja-cases.py). An error case must fail with Jinja's message.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../src/compile/jinja-environment.js';
import { stubState } from '../support/stub-render-state.js';

interface Case {
  readonly name: string;
  readonly template: string;
  readonly context?: Record<string, unknown>;
}
type Expected = { readonly output: string } | { readonly error: string };

const ROOT = join(import.meta.dirname, '..', '..');
const CASES_PATH = join(ROOT, 'test', 'fixtures', 'jinja-cases', 'cases.json');
const EXPECTED_PATH = join(ROOT, 'test', 'fixtures', 'jinja-cases', 'expected.json');
const RECORDER = join(ROOT, 'scripts', 'record-jinja-cases.py');

const cases = JSON.parse(readFileSync(CASES_PATH, 'utf8')) as Case[];
const expected = (JSON.parse(readFileSync(EXPECTED_PATH, 'utf8')) as { cases: Record<string, Expected> }).cases;
const env = new JinjaEnvironment([], { simple: false });
/** The default environment: a template in the simple subset takes the fast path (simple-template.ts). */
const fast = new JinjaEnvironment([]);

/** The render, or the error's message. */
function render(c: Case, through = env): { output: string } | { error: string } {
  try {
    return { output: through.render('models/case.sql', c.template, stubState(false), structuredClone(c.context ?? {})) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

const hasJinja2 = spawnSync('python3', ['-c', 'import jinja2, yaml'], { stdio: 'ignore' }).status === 0;

describe('Jinja differential cases (expected output recorded from Python Jinja2)', () => {
  it('has a recorded outcome for every case, and enough cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(120);
    expect(Object.keys(expected).sort()).toEqual(cases.map((c) => c.name).sort());
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const want = expected[c.name]!;
    const got = render(c);
    if ('error' in want) {
      expect(got, c.template).toHaveProperty('error');
      // Jinja's message without Python's exception class name.
      expect((got as { error: string }).error, c.template).toContain(want.error.replace(/^\w+: /, ''));
    } else {
      expect(got, c.template).toEqual({ output: want.output });
      expect(render(c, fast), `${c.template} (fast path)`).toEqual({ output: want.output });
    }
  });
});

describe('expected.json is current', () => {
  it.skipIf(!hasJinja2)('re-recording the cases with Python Jinja2 gives expected.json (skipped without python3 jinja2 and yaml)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jinja-cases-'));
    try {
      const out = join(dir, 'expected.json');
      execFileSync('python3', [RECORDER, CASES_PATH, out], { stdio: 'pipe' });
      expect(JSON.parse(readFileSync(out, 'utf8')).cases).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
