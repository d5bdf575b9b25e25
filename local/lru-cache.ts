/**
 * A bounded map that forgets the least recently used entry: the local gateway's authorizer cache
 * and rate-limit buckets, so a flood of distinct keys costs a fixed amount of memory. Entries are
 * chained from oldest to newest use, so a read, a write and an eviction are each O(1). (Evicting
 * through a Map's insertion order is not: V8 leaves deleted slots at the head of the table, and
 * every new iterator walks past them.)
 */
interface Entry<K, V> {
  key: K;
  value: V;
  older?: Entry<K, V>;
  newer?: Entry<K, V>;
}

export class LruCache<K, V> {
  private readonly entries = new Map<K, Entry<K, V>>();
  private oldest?: Entry<K, V>;
  private newest?: Entry<K, V>;

  constructor(readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new Error('an LRU cache holds at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, marked as most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.unlink(entry);
    this.append(entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const existing = this.entries.get(key);
    if (existing) {
      existing.value = value;
      this.unlink(existing);
      this.append(existing);
      return;
    }
    const entry: Entry<K, V> = { key, value };
    this.entries.set(key, entry);
    this.append(entry);
    if (this.entries.size > this.maxEntries && this.oldest) {
      const evicted = this.oldest;
      this.unlink(evicted);
      this.entries.delete(evicted.key);
    }
  }

  private append(entry: Entry<K, V>): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry<K, V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
  }
}
