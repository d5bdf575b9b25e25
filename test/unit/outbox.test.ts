import { describe, expect, it } from 'vitest';
import { previousAttributes, READ_ONLY_RECORDER } from '../../shared/events/outbox';

const base = {
  id: 'loc_1',
  name: 'Main',
  city: 'Austin' as string | null,
  is_active: true,
  metadata: { color: 'red', tags: ['a', 'b'] } as Record<string, unknown>,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
};

describe('previousAttributes', () => {
  it('returns the old values of the changed keys only', () => {
    expect(previousAttributes(base, { ...base, name: 'Dock', is_active: false })).toEqual({ name: 'Main', is_active: true });
  });

  it('returns nothing when nothing changed', () => {
    expect(previousAttributes(base, { ...base })).toEqual({});
  });

  it('ignores updated_at', () => {
    expect(previousAttributes(base, { ...base, updated_at: '2024-02-02T00:00:00.000Z' })).toEqual({});
    expect(previousAttributes(base, { ...base, name: 'Dock', updated_at: '2024-02-02T00:00:00.000Z' })).toEqual({ name: 'Main' });
  });

  it('reports a change to and from null', () => {
    expect(previousAttributes(base, { ...base, city: null })).toEqual({ city: 'Austin' });
    const cleared = { ...base, city: null };
    expect(previousAttributes(cleared, base)).toEqual({ city: null });
    expect('city' in previousAttributes(cleared, base)).toBe(true);
  });

  it('compares JSON values deeply: equal but distinct objects are not a change', () => {
    const after = { ...base, metadata: { color: 'red', tags: ['a', 'b'] } };
    expect(after.metadata).not.toBe(base.metadata);
    expect(previousAttributes(base, after)).toEqual({});
  });

  it('reports a nested change with the whole old value', () => {
    const after = { ...base, metadata: { color: 'red', tags: ['a', 'c'] } };
    expect(previousAttributes(base, after)).toEqual({ metadata: { color: 'red', tags: ['a', 'b'] } });
  });

  it('reports a changed array order as a change', () => {
    const after = { ...base, metadata: { color: 'red', tags: ['b', 'a'] } };
    expect(previousAttributes(base, after)).toHaveProperty('metadata');
  });

  it('treats numbers and numeric strings as different', () => {
    expect(previousAttributes({ amount: '10.00' }, { amount: 10 } as unknown as { amount: string })).toEqual({ amount: '10.00' });
  });
});

describe('READ_ONLY_RECORDER', () => {
  it('records nothing and keeps nothing: a read shares it', async () => {
    await expect(READ_ONLY_RECORDER.record('location.created', base)).rejects.toThrow('a read-only request records no events');
    expect(READ_ONLY_RECORDER.recorded).toEqual([]);
    expect(Object.isFrozen(READ_ONLY_RECORDER.recorded)).toBe(true);
  });
});
