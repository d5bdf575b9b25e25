import { describe, expect, it } from 'vitest';
import { withLivemode } from '../../shared/schemas/livemode';

describe('withLivemode', () => {
  it('stamps every object with an object name, at any depth, right after `object`, but not lists', () => {
    const list = {
      object: 'list',
      data: [{ id: 'o1', object: 'order', lines: [{ id: 'l1', object: 'order_line_item' }], account: { id: 'a1', object: 'account' } }],
      has_more: false,
    };
    const stamped = withLivemode(list, false);
    expect(stamped).toEqual({
      object: 'list',
      data: [
        {
          id: 'o1',
          object: 'order',
          livemode: false,
          lines: [{ id: 'l1', object: 'order_line_item', livemode: false }],
          account: { id: 'a1', object: 'account', livemode: false },
        },
      ],
      has_more: false,
    });
    expect(Object.keys(stamped.data[0])).toEqual(['id', 'object', 'livemode', 'lines', 'account']);
    expect(list.data[0]).not.toHaveProperty('livemode');
  });

  it('leaves metadata, dates, nulls and objects without a name as they are', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const value = { id: 'x', object: 'location', metadata: { object: 'crate' }, created_at: at, totals: { net: 1 }, parent: null };
    const stamped = withLivemode(value, true);
    expect(stamped).toEqual({ id: 'x', object: 'location', livemode: true, metadata: { object: 'crate' }, created_at: at, totals: { net: 1 }, parent: null });
    expect(stamped.created_at).toBe(at);
  });

  it('overwrites a stale livemode rather than keeping two', () => {
    expect(withLivemode({ object: 'payment', livemode: true, id: 'p' }, false)).toEqual({ object: 'payment', livemode: false, id: 'p' });
  });
});
