import { describe, expect, it } from 'vitest';
import { parseYamlText } from '../../../src/project/read-yaml-file.js';
import { ProjectError } from '../../../src/errors/project-error.js';

const TEXT = 'version: 2\nmodels:\n  - name: a\n    description: first\n  - name: b\n    config:\n      tags: [x]\n';

describe('parsed yml is memoized by content', () => {
  it('a second parse of the same text gives the same value and lines, asked before or not', () => {
    const first = parseYamlText(TEXT, 'models/schema.yml');
    expect(first.lineOf(['models', 0])).toBe(3);
    const again = parseYamlText(TEXT, 'models/other.yml');
    expect(again.value).toEqual(first.value);
    expect(again.value).not.toBe(first.value);
    expect(again.displayPath).toBe('models/other.yml');
    expect(again.lineOf(['models', 0])).toBe(3);
    expect(again.lineOf(['models', 1, 'config'])).toBe(6);
    expect(again.lineOf(['nothing', 'here'])).toBeUndefined();
  });

  it('never memoizes a syntax error', () => {
    const broken = 'models:\n  - name: a\n   bad: [\n';
    expect(() => parseYamlText(broken, 'x.yml')).toThrow(ProjectError);
    expect(() => parseYamlText(broken, 'x.yml')).toThrow(ProjectError);
  });
});
