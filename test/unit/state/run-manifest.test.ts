import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession, run } from '../../../src/index.js';
import { manifestJson } from '../../../src/state/manifest-json.js';
import { manifestParts, manifestText } from '../../../src/state/run-manifest.js';
import { writeProject } from '../../support/example-project.js';

const project = () => writeProject({
  'project.yml': 'name: shop\nmodels:\n  +materialized: table\n',
  'seeds/raw.csv': 'id,status\n1,placed\n2,lost\n',
  'models/orders.sql': "select * from {{ ref('raw') }}",
  'models/schema.yml': 'models:\n  - name: orders\n    description: "the orders"\n    columns:\n      - name: id\n        data_tests: [unique]\n',
});

const read = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, 'target', file), 'utf8')) as { metadata: { invocation_id: string } } & Record<string, unknown>;

describe('manifest.json after a run', () => {
  it('is the text JSON.stringify gives for manifestJson, byte for byte', () => {
    const session = loadSession({ projectDir: project() });
    const expected = `${JSON.stringify(manifestJson(session.manifest, session.graph, 'inv-1'), null, 2)}\n`;
    const text = manifestText(manifestParts(session.manifest, session.graph, 'inv-1'));
    // generated_at is the clock's: equal apart from it.
    const at = /"generated_at": "[^"]*"/;
    expect(text.replace(at, '')).toBe(expected.replace(at, ''));
    expect(JSON.parse(text)).toMatchObject({ metadata: { invocation_id: 'inv-1', project_name: 'shop' } });
  });

  it('names each run in its metadata, as dbt writes it at every invocation, and follows a changed node', async () => {
    const dir = project();
    const first = await run({ projectDir: dir, command: 'build' });
    expect(first.exitCode).toBe(0);
    expect(read(dir, 'manifest.json').metadata.invocation_id).toBe(first.invocationId);

    const second = await run({ projectDir: dir });
    expect(second.exitCode).toBe(0);
    expect(read(dir, 'manifest.json').metadata.invocation_id).toBe(second.invocationId);
    expect(read(dir, 'run_results.json').metadata.invocation_id).toBe(second.invocationId);

    writeFileSync(join(dir, 'models', 'orders.sql'), "select id from {{ ref('raw') }}");
    const third = await run({ projectDir: dir });
    expect(third.exitCode).toBe(0);
    const manifest = read(dir, 'manifest.json');
    expect(manifest.metadata.invocation_id).toBe(third.invocationId);
    expect((manifest.nodes as Record<string, { raw_code: string }>)['model.shop.orders']!.raw_code).toBe("select id from {{ ref('raw') }}");
    expect(readdirSync(join(dir, 'target')).filter((f) => /\.(tmp|old)$/.test(f))).toEqual([]);
  });
});
