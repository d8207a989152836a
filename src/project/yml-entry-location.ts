import type { YamlFile } from './read-yaml-file.js';

/**
 * A yml entry's file and line; the line is looked up when read (an error
 * message), which may parse the file with positions, and remembered.
 */
export function ymlEntryLocation(yaml: YamlFile, path: readonly (string | number)[]): { readonly file: string; readonly line: number | undefined } {
  let line: number | undefined | null = null;
  return {
    file: yaml.displayPath,
    get line() {
      if (line === null) line = yaml.lineOf(path);
      return line;
    },
  };
}
