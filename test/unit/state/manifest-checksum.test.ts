import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../../../src/api/parse-project.js';
import { writeProject } from '../../support/example-project.js';

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The manifest's `checksum` and `path` of models and seeds, as dbt writes them (what state comparison reads). */
describe('manifest checksums', () => {
  it("a model's is the SHA-256 of its file, a small seed's of its CSV, a large seed's its path; path is relative to the resource folder", () => {
    const model = "select * from {{ ref('small') }}\n";
    const dir = writeProject({ 'project.yml': 'name: shop\n', 'models/marts/m.sql': model, 'seeds/small.csv': 'id\n1\n', 'seeds/big.csv': 'id\n' });
    writeFileSync(join(dir, 'seeds/big.csv'), `id\n${'1\n'.repeat(600_000)}`);
    const { manifestPath } = parseProject({ projectDir: dir });
    const nodes = JSON.parse(readFileSync(manifestPath, 'utf8')).nodes as Record<string, { checksum: unknown; path: string }>;
    expect(nodes['model.shop.m']).toMatchObject({ checksum: { name: 'sha256', checksum: sha256(model) }, path: 'marts/m.sql' });
    expect(nodes['seed.shop.small']).toMatchObject({ checksum: { name: 'sha256', checksum: sha256(readFileSync(join(dir, 'seeds/small.csv'))) }, path: 'small.csv' });
    expect(nodes['seed.shop.big']!.checksum).toEqual({ name: 'path', checksum: 'seeds/big.csv' });
  });
});
