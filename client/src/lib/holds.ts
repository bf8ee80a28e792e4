/*
 * Who holds what: a count per key of the pages holding it (a game, an arena), so that a
 * controller asks the server for a thing when its first holder comes and lets it go when its
 * last holder leaves.
 */
export class Holds<K> {
  private readonly counts = new Map<K, number>();

  /** One more holder of `key`; true when it is the first. */
  add(key: K): boolean {
    const n = this.counts.get(key) ?? 0;
    this.counts.set(key, n + 1);
    return n === 0;
  }

  /** One holder of `key` less; true when it was the last (or `key` was not held). */
  remove(key: K): boolean {
    const left = (this.counts.get(key) ?? 1) - 1;
    if (left > 0) {
      this.counts.set(key, left);
      return false;
    }
    this.counts.delete(key);
    return true;
  }

  has(key: K): boolean {
    return this.counts.has(key);
  }

  keys(): IterableIterator<K> {
    return this.counts.keys();
  }
}
