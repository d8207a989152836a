/**
 * What was made from a template, by its path and its source: the source is
 * compared, not hashed into a key (a `path + source` string made at every
 * render and kept as the key would hold a model's text twice over). A path
 * holds its first few sources in a short list, and only a path with more
 * (a yml file whose values are rendered one by one) gets a map of its own:
 * at 10,000 models, a map per model file was a tenth of the lookups' cost,
 * and memory the garbage collector copied.
 */
export class ByPathAndSource<T> {
  private readonly byPath = new Map<string, { readonly source: string; value: T }[] | Map<string, T>>();

  get(path: string, source: string): T | undefined {
    const entries = this.byPath.get(path);
    if (entries === undefined) return undefined;
    if (entries instanceof Map) return entries.get(source);
    for (const entry of entries) if (entry.source === source) return entry.value;
    return undefined;
  }

  set(path: string, source: string, value: T): void {
    const entries = this.byPath.get(path);
    if (entries === undefined) {
      this.byPath.set(path, [{ source, value }]);
    } else if (entries instanceof Map) {
      entries.set(source, value);
    } else {
      const entry = entries.find((e) => e.source === source);
      if (entry) entry.value = value;
      else if (entries.length < SHORT_LIST) entries.push({ source, value });
      else this.byPath.set(path, new Map([...entries.map((e) => [e.source, e.value] as const), [source, value]]));
    }
  }
}

/** Sources a path keeps in a list before it gets a map. */
const SHORT_LIST = 4;
