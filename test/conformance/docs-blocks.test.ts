import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../../src/api/parse-project.js';
import { ProjectError } from '../../src/errors/project-error.js';
import { writeProject } from '../support/example-project.js';

/**
 * `{% docs %}` blocks and doc() (issue 15), modelled on dbt-core's tests/functional/docs/
 * (good docs blocks, an alternative docs-paths, missing and duplicate blocks, an invalid doc ref):
 * `parse` writes manifest.json, whose descriptions are rendered and whose `docs` holds every block.
 * In-process: the command line is not the point here (the bad-input catalogue runs E123-E126 through it).
 */

const PROJECT = "name: shop\nversion: '1.0'\n";
const MODEL = "select 1 as id, 'ada' as first_name, 'lovelace' as last_name, 1 as tricky";

const DOCS_MD = `Prose outside a block is not a doc.
{% docs customer_doc %}
One row per customer, copied from the seed.
{% enddocs %}

{% docs customer_doc__id %}
  The customer's number
{% enddocs %}

{%- docs customer_doc__unused -%}
Never referenced, which is fine.
{%- enddocs -%}

{% docs customer_doc__last_name %}
The family name
{% enddocs %}
`;

const SCHEMA_YML = `version: 2
models:
  - name: customers
    description: "{{ doc('customer_doc') }}"
    columns:
      - name: id
        description: "{{ doc('customer_doc__id') }}"
      - name: first_name
        description: The given name
      - name: last_name
        description: "{{ doc('shop', 'customer_doc__last_name') }}"
      - name: tricky
        description: "{{ doc('customer_doc__id') }} and then {{ doc('shop', 'customer_doc__last_name') }}"
`;

/** manifest.json, read loosely as dbt's own tests read it. */
type Json = Record<string, any>;

function parsed(files: Record<string, string>): Json {
  const dir = writeProject({ 'dbt_project.yml': PROJECT, ...files });
  const { manifestPath } = parseProject({ projectDir: dir });
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Json;
}

/** The error a parse stops with, as the CLI prints it (file:line: message). */
function parseError(files: Record<string, string>): string {
  const dir = writeProject({ 'dbt_project.yml': PROJECT, ...files });
  try {
    parseProject({ projectDir: dir });
  } catch (err) {
    expect(err).toBeInstanceOf(ProjectError);
    expect((err as ProjectError).exitCode).toBe(2);
    return (err as ProjectError).format().split('\n')[0]!;
  }
  throw new Error('the parse succeeded');
}

describe('docs blocks and doc()', () => {
  it('renders doc() in model and column descriptions, with or without the project name, and lists every block under docs', () => {
    const manifest = parsed({ 'models/customers.sql': MODEL, 'models/schema.yml': SCHEMA_YML, 'models/docs.md': DOCS_MD });
    const model = manifest.nodes['model.shop.customers'];
    expect(model.description).toBe('One row per customer, copied from the seed.');
    expect(Object.fromEntries(Object.entries(model.columns as Record<string, Json>).map(([name, c]) => [name, c.description]))).toEqual({
      id: "The customer's number",
      first_name: 'The given name',
      last_name: 'The family name',
      tricky: "The customer's number and then The family name",
    });
    // doc_blocks (dbt 1.10): the blocks named by outputs that are one doc() call.
    expect(model.doc_blocks).toEqual(['doc.shop.customer_doc']);
    expect(Object.fromEntries(Object.entries(model.columns as Record<string, Json>).map(([name, c]) => [name, c.doc_blocks]))).toEqual({
      id: ['doc.shop.customer_doc__id'],
      first_name: [],
      last_name: ['doc.shop.customer_doc__last_name'],
      tricky: ['doc.shop.customer_doc__id', 'doc.shop.customer_doc__last_name'],
    });
    expect(Object.keys(manifest.docs).sort()).toEqual(['doc.shop.customer_doc', 'doc.shop.customer_doc__id', 'doc.shop.customer_doc__last_name', 'doc.shop.customer_doc__unused']);
    expect(manifest.docs['doc.shop.customer_doc__id']).toEqual({
      name: 'customer_doc__id',
      resource_type: 'doc',
      package_name: 'shop',
      path: 'docs.md',
      original_file_path: 'models/docs.md',
      unique_id: 'doc.shop.customer_doc__id',
      block_contents: "The customer's number",
    });
    // Whitespace control on the tags changes nothing: contents are trimmed, as dbt trims them.
    expect(manifest.docs['doc.shop.customer_doc__unused'].block_contents).toBe('Never referenced, which is fine.');
  });

  it("a block's text is a string templates can work on (dbt's back-compat case: doc('x').format(...)); it is then no doc_block", () => {
    const manifest = parsed({
      'models/colors.sql': "select 1 as id, 'blue' as color",
      'models/docs.md': '{% docs column_doc %}\nThis is a test for column {test_name}\n{% enddocs %}\n',
      'models/schema.yml': `models:
  - name: colors
    columns:
      - name: id
        description: "{{ doc('column_doc').format(test_name = 'id') }}"
      - name: color
        description: "{{ 'This is a test for column {test_name}'.format(test_name = 'color') }}"
`,
    });
    const columns = manifest.nodes['model.shop.colors'].columns as Record<string, Json>;
    expect(Object.values(columns).map((c) => [c.description, c.doc_blocks])).toEqual([
      ['This is a test for column id', []],
      ['This is a test for column color', []],
    ]);
  });

  it('docs-paths in the project file replaces the default (every resource path): a block elsewhere is not read', () => {
    const alt = '{% docs customer_doc %}\nAlternative text\n{% enddocs %}\n{% docs customer_doc__id %}\nAlternative id\n{% enddocs %}\n{% docs customer_doc__last_name %}\nAlternative last name\n{% enddocs %}\n';
    const manifest = parsed({
      'dbt_project.yml': `${PROJECT}docs-paths: [alt-docs]\n`,
      'models/customers.sql': MODEL,
      'models/schema.yml': SCHEMA_YML,
      'models/docs.md': DOCS_MD,
      'alt-docs/nested/docs.md': alt,
    });
    expect(manifest.nodes['model.shop.customers'].description).toBe('Alternative text');
    expect(manifest.nodes['model.shop.customers'].columns.tricky.description).toBe('Alternative id and then Alternative last name');
    expect(manifest.docs['doc.shop.customer_doc']).toMatchObject({ path: 'nested/docs.md', original_file_path: 'alt-docs/nested/docs.md' });
    expect(manifest.docs['doc.shop.customer_doc__unused']).toBeUndefined();
  });

  it('renders doc() in the descriptions of seeds, sources and their columns, snapshots and data tests; blocks found under seeds/, snapshots/ and macros/', () => {
    const manifest = parsed({
      'seeds/people.csv': 'id,name\n1,ada\n',
      'seeds/people.yml': "seeds:\n  - name: people\n    description: \"{{ doc('people') }}\"\n    columns:\n      - name: id\n        description: \"{{ doc('person_id') }}\"\n",
      'seeds/people.md': '{% docs people %}\nThe people we know.\n{% enddocs %}\n',
      'macros/ids.md': '{% docs person_id %}\nA person number.\n{% enddocs %}\n',
      'snapshots/notes.md': '{% docs history %}\nEvery version of a person.\n{% enddocs %}\n',
      'models/sources.yml': `sources:
  - name: crm
    tables:
      - name: accounts
        description: "From the CRM: {{ doc('people') }}"
        columns:
          - name: id
            description: "{{ doc('person_id') }}"
            data_tests:
              - not_null:
                  description: "No missing {{ doc('person_id') }}"
snapshots:
  - name: people_history
    relation: ref('people')
    description: "{{ doc('history') }}"
    config: {unique_key: id, strategy: check, check_cols: all}
    columns:
      - name: name
        description: "{{ doc('people') }}"
`,
    });
    const seed = manifest.nodes['seed.shop.people'];
    expect([seed.description, seed.columns.id.description]).toEqual(['The people we know.', 'A person number.']);
    const source = manifest.sources['source.shop.crm.accounts'];
    expect([source.description, source.columns.id.description]).toEqual(['From the CRM: The people we know.', 'A person number.']);
    const snapshot = manifest.nodes['snapshot.shop.people_history'];
    expect([snapshot.description, snapshot.columns.name.description]).toEqual(['Every version of a person.', 'The people we know.']);
    const test = Object.values(manifest.nodes as Record<string, Json>).find((n) => n.resource_type === 'test')!;
    expect(test.description).toBe('No missing A person number.');
    expect(Object.values(manifest.docs as Record<string, Json>).map((d) => d.original_file_path).sort()).toEqual(['macros/ids.md', 'seeds/people.md', 'snapshots/notes.md']);
  });

  it('E123: doc() naming a block that does not exist names the node, the doc and the closest name (dbt: a compilation error)', () => {
    const yml = SCHEMA_YML.replace("doc('customer_doc__id') }}\"\n      - name: first_name", "doc('customer_doc__idd') }}\"\n      - name: first_name");
    expect(parseError({ 'models/customers.sql': MODEL, 'models/schema.yml': yml, 'models/docs.md': DOCS_MD }))
      .toBe("models/schema.yml:7: Documentation for 'model.shop.customers' depends on doc 'customer_doc__idd' which was not found. Did you mean 'customer_doc__id'?");
    // Another package's docs: mini-dbt has no packages, so nothing is found there (dbt's wording names the package).
    expect(parseError({ 'models/customers.sql': MODEL, 'models/schema.yml': SCHEMA_YML.replace("doc('shop', 'customer_doc__last_name') }}\"\n      - name: tricky", "doc('foo', 'customer_doc__last_name') }}\"\n      - name: tricky"), 'models/docs.md': DOCS_MD }))
      .toBe("models/schema.yml:11: Documentation for 'model.shop.customers' depends on doc 'customer_doc__last_name' in package 'foo' which was not found.");
  });

  it('E124: two blocks of one name, in one file or in two, name both places', () => {
    expect(parseError({ 'models/customers.sql': MODEL, 'models/docs.md': '{% docs twice %}\n  first\n{% enddocs %}\n\n{% docs twice %}\n  second\n{% enddocs %}' }))
      .toBe("models/docs.md:5: two docs blocks are named 'twice': models/docs.md:1 and models/docs.md:5");
    expect(parseError({ 'models/customers.sql': MODEL, 'models/a.md': '{% docs twice %}a{% enddocs %}', 'seeds/b.md': '\n{% docs twice %}b{% enddocs %}' }))
      .toBe("seeds/b.md:2: two docs blocks are named 'twice': models/a.md:1 and seeds/b.md:2");
  });

  it('E125, E126: a block without a name, or without its enddocs, is refused at its line', () => {
    expect(parseError({ 'models/docs.md': 'intro\n{% docs %}\ntext\n{% enddocs %}\n' })).toBe('models/docs.md:2: a {% docs %} block needs a name');
    expect(parseError({ 'models/docs.md': 'intro\n\n{% docs open_ended %}\ntext\n' })).toBe("models/docs.md:3: docs block 'open_ended' has no {% enddocs %}");
    expect(parseError({ 'models/docs.md': '{% docs first %}\n{% docs second %}\n{% enddocs %}\n' })).toBe("models/docs.md:1: docs block 'first' has no {% enddocs %} before the next {% docs %} (line 2)");
  });
});
