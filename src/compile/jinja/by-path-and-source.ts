/**
 * What was made from a template, by its path and its source: a map of
 * maps, so a lookup hashes the source string the caller already holds (V8
 * keeps a string's hash) instead of a new `path + source` string made at
 * every render and kept as the key (a model's text twice over).
 */
export class ByPathAndSource<T> {
  private readonly byPath = new Map<string, Map<string, T>>();

  get(path: string, source: string): T | undefined {
    return this.byPath.get(path)?.get(source);
  }

  set(path: string, source: string, value: T): void {
    let bySource = this.byPath.get(path);
    if (!bySource) this.byPath.set(path, (bySource = new Map()));
    bySource.set(source, value);
  }
}
