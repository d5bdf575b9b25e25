import { describe, expect, it } from 'vitest';
import { withTransaction } from '../../shared/db/database';
import { formatNumber, nextNumber } from '../../shared/db/sequences';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();

describe('per-entity number sequences', () => {
  it('are gap-free under concurrency and rollbacks, and independent per entity and name', async () => {
    const a = await api.newEntity();
    const b = await api.newEntity();
    const take = (entityId: string, fail: boolean) =>
      withTransaction({ role: 'app_user', entityId }, async (db) => {
        const value = await nextNumber(db, entityId, 'order');
        if (fail) throw new Error('rolled back');
        return value;
      }).catch(() => undefined);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => take(a.entity.id, i % 3 === 0)));
    const committed = results.filter((v): v is number => v !== undefined).sort((x, y) => x - y);
    expect(committed).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await withTransaction({ role: 'app_user', entityId: b.entity.id }, (db) => nextNumber(db, b.entity.id, 'order'))).toBe(1);
    expect(await withTransaction({ role: 'app_user', entityId: a.entity.id }, (db) => nextNumber(db, a.entity.id, 'bill'))).toBe(1);
    expect(formatNumber('SO-', 42)).toBe('SO-000042');
  });
});
