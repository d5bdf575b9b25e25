import { describe, expect, it, vi } from 'vitest';
import { statusOf } from '../../shared/http/error-status';
import type { Db } from '../../shared/db/database';
import { ApiError } from '../../shared/errors';
import { applyExpand, expandById, MAX_EXPAND_DEPTH, parseExpand, type ExpandLoader, type ExpandSpec } from '../../shared/http/expand';

const noop: ExpandLoader = async () => {};
const spec: ExpandSpec = {
  customer: noop,
  location: noop,
  lines: noop,
  'lines.product': noop,
  'lines.product.manufacturer': noop,
};
const fakeDb = {} as Db;

function expandErrorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('parseExpand', () => {
  it('accepts whitelisted paths on a single object', () => {
    expect(parseExpand(['customer', 'location'], spec, false)).toEqual(['customer', 'location']);
  });

  it('returns nothing for nothing requested, with or without a spec', () => {
    expect(parseExpand([], spec, true)).toEqual([]);
    expect(parseExpand([], undefined, false)).toEqual([]);
  });

  it('requires the data. prefix on lists and strips it', () => {
    expect(parseExpand(['data.customer', 'data.lines.product'], spec, true)).toEqual(['customer', 'lines', 'lines.product']);
  });

  it('refuses an unprefixed path on a list', () => {
    const error = expandErrorOf(() => parseExpand(['customer'], spec, true));
    expect(error.code).toBe('expand_error');
    expect(error.options.param).toBe('expand[0]');
  });

  it('refuses a data. prefixed path on a single object', () => {
    expect(expandErrorOf(() => parseExpand(['data.customer'], spec, false)).code).toBe('expand_error');
  });

  it('refuses a path not in the whitelist with expand_error naming its index', () => {
    const error = expandErrorOf(() => parseExpand(['customer', 'location', 'supplier'], spec, false));
    expect(error.code).toBe('expand_error');
    expect(statusOf(error)).toBe(400);
    expect(error.options.param).toBe('expand[2]');
    expect(error.toEnvelope('r')).toMatchObject({ type: 'expand_error', param: 'expand[2]' });
  });

  it('names the index of the offending value even after duplicates', () => {
    const error = expandErrorOf(() => parseExpand(['data.customer', 'data.customer', 'data.nope'], spec, true));
    expect(error.options.param).toBe('expand[2]');
  });

  it('lists the allowed choices (with data. on lists) in the hint', () => {
    const hint = expandErrorOf(() => parseExpand(['data.nope'], { customer: noop }, true)).message;
    expect(hint).toContain("'data.nope'");
    expect(hint).toContain('data.customer');
  });

  it('says nothing can be expanded when there is no spec', () => {
    const error = expandErrorOf(() => parseExpand(['customer'], undefined, false));
    expect(error.code).toBe('expand_error');
    expect(error.message).toMatch(/expands nothing/);
  });

  it('does not accept Object prototype names as paths', () => {
    expect(expandErrorOf(() => parseExpand(['constructor'], spec, false)).code).toBe('expand_error');
    expect(expandErrorOf(() => parseExpand(['__proto__'], spec, false)).code).toBe('expand_error');
  });

  it('removes duplicates', () => {
    expect(parseExpand(['customer', 'customer', 'location', 'customer'], spec, false)).toEqual(['customer', 'location']);
  });

  it('adds whitelisted parents of a nested path before it', () => {
    expect(parseExpand(['lines.product.manufacturer'], spec, false)).toEqual(['lines', 'lines.product', 'lines.product.manufacturer']);
  });

  it('sorts by depth so parents run before children, whatever the request order', () => {
    const paths = parseExpand(['lines.product.manufacturer', 'lines.product', 'customer', 'lines'], spec, false);
    expect(paths.map((path) => path.split('.').length)).toEqual([1, 1, 2, 3]);
    expect(paths.indexOf('lines')).toBeLessThan(paths.indexOf('lines.product'));
    expect(paths.indexOf('lines.product')).toBeLessThan(paths.indexOf('lines.product.manufacturer'));
    expect(new Set(paths)).toEqual(new Set(['customer', 'lines', 'lines.product', 'lines.product.manufacturer']));
  });

  it('does not add a parent that is not in the whitelist', () => {
    expect(parseExpand(['a.b'], { 'a.b': noop }, false)).toEqual(['a.b']);
  });

  it(`allows depth ${MAX_EXPAND_DEPTH} and refuses depth ${MAX_EXPAND_DEPTH + 1} even when whitelisted`, () => {
    const deep: ExpandSpec = { a: noop, 'a.b': noop, 'a.b.c': noop, 'a.b.c.d': noop, 'a.b.c.d.e': noop };
    expect(MAX_EXPAND_DEPTH).toBe(4);
    expect(parseExpand(['a.b.c.d'], deep, false)).toEqual(['a', 'a.b', 'a.b.c', 'a.b.c.d']);
    const error = expandErrorOf(() => parseExpand(['a', 'a.b.c.d.e'], deep, false));
    expect(error.options.param).toBe('expand[1]');
    expect(expandErrorOf(() => parseExpand(['data.a.b.c.d.e'], deep, true)).options.param).toBe('expand[0]');
  });
});

describe('applyExpand', () => {
  it('calls each loader once with the parents of all list items', async () => {
    const customer = vi.fn<ExpandLoader>(async () => {});
    const roots = [{ id: '1' }, { id: '2' }, { id: '3' }];
    await applyExpand({ db: fakeDb }, roots, ['customer'], { customer });
    expect(customer).toHaveBeenCalledTimes(1);
    expect(customer.mock.calls[0][0]).toEqual({ db: fakeDb });
    expect(customer.mock.calls[0][1]).toEqual(roots);
    expect(customer.mock.calls[0][1][0]).toBe(roots[0]);
  });

  it('gives a nested loader the objects found at the parent path, flattening arrays across items', async () => {
    const calls: Record<string, unknown[][]> = {};
    const record =
      (name: string): ExpandLoader =>
      (_ctx, parents) => {
        (calls[name] ??= []).push(parents);
        return Promise.resolve();
      };
    const lineA = { id: 'la', product_id: 'p1' };
    const lineB = { id: 'lb', product_id: 'p2' };
    const lineC = { id: 'lc', product_id: 'p1' };
    const roots = [
      { id: 'o1', lines: [lineA, lineB] },
      { id: 'o2', lines: [lineC] },
      { id: 'o3', lines: [] },
    ];
    await applyExpand({ db: fakeDb }, roots, ['lines', 'lines.product'], { lines: record('lines'), 'lines.product': record('lines.product') });
    expect(calls.lines).toEqual([roots]);
    expect(calls['lines.product']).toHaveLength(1);
    expect(calls['lines.product'][0]).toEqual([lineA, lineB, lineC]);
    expect(calls['lines.product'][0][0]).toBe(lineA);
  });

  it('sees what an earlier loader attached (parents expanded first)', async () => {
    const spec: ExpandSpec = {
      customer: (_ctx, parents) => {
        for (const parent of parents) parent.customer = { id: parent.customer_id, address: { city: 'Austin' } };
        return Promise.resolve();
      },
      'customer.address': (_ctx, parents) => {
        for (const parent of parents) parent.seen = true;
        return Promise.resolve();
      },
    };
    const roots: Record<string, unknown>[] = [{ customer_id: 'c1' }, { customer_id: 'c2' }];
    await applyExpand({ db: fakeDb }, roots, parseExpand(['customer.address'], spec, false), spec);
    expect(roots[0].customer).toEqual({ id: 'c1', address: { city: 'Austin' }, seen: true });
    expect(roots[1].customer).toEqual({ id: 'c2', address: { city: 'Austin' }, seen: true });
  });

  it('skips null, missing and non-object values at the parent path', async () => {
    const loader = vi.fn<ExpandLoader>(async () => {});
    const present = { id: 'c1' };
    const roots = [{ customer: present }, { customer: null }, {}, { customer: 'cus_string' }];
    await applyExpand({ db: fakeDb }, roots, ['customer.address'], { 'customer.address': loader });
    expect(loader).toHaveBeenCalledTimes(1);
    expect(loader.mock.calls[0][1]).toEqual([present]);
  });

  it('does not call a loader when there are no parents', async () => {
    const loader = vi.fn<ExpandLoader>(async () => {});
    await applyExpand({ db: fakeDb }, [], ['customer'], { customer: loader });
    await applyExpand({ db: fakeDb }, [{ lines: [] }], ['lines.product'], { 'lines.product': loader });
    expect(loader).not.toHaveBeenCalled();
  });

  it('runs the loaders in the order of the paths', async () => {
    const order: string[] = [];
    const spec: ExpandSpec = {
      a: () => Promise.resolve(void order.push('a')),
      b: () => Promise.resolve(void order.push('b')),
    };
    await applyExpand({ db: fakeDb }, [{}], ['b', 'a'], spec);
    expect(order).toEqual(['b', 'a']);
  });
});

describe('expandById', () => {
  it('loads all ids in one call, de-duplicated, and sets the field beside the id', async () => {
    const load = vi.fn((_db: Db, ids: string[]) => Promise.resolve(ids.map((id) => ({ id, name: `name of ${id}` }))));
    const loader = expandById('customer_id', 'customer', load);
    const parents: Record<string, unknown>[] = [{ customer_id: 'c1' }, { customer_id: 'c2' }, { customer_id: 'c1' }];
    await loader({ db: fakeDb }, parents);
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0][0]).toBe(fakeDb);
    expect(load.mock.calls[0][1]).toEqual(['c1', 'c2']);
    expect(parents).toEqual([
      { customer_id: 'c1', customer: { id: 'c1', name: 'name of c1' } },
      { customer_id: 'c2', customer: { id: 'c2', name: 'name of c2' } },
      { customer_id: 'c1', customer: { id: 'c1', name: 'name of c1' } },
    ]);
  });

  it('sets null for an id the loader did not return', async () => {
    const loader = expandById('customer_id', 'customer', () => Promise.resolve([{ id: 'c1' }]));
    const parents: Record<string, unknown>[] = [{ customer_id: 'c1' }, { customer_id: 'gone' }];
    await loader({ db: fakeDb }, parents);
    expect(parents[0].customer).toEqual({ id: 'c1' });
    expect(parents[1].customer).toBeNull();
  });

  it('sets null for a null id and leaves it out of the load', async () => {
    const load = vi.fn((_db: Db, ids: string[]) => Promise.resolve(ids.map((id) => ({ id }))));
    const parents: Record<string, unknown>[] = [{ customer_id: null }, { customer_id: 'c1' }];
    await expandById('customer_id', 'customer', load)({ db: fakeDb }, parents);
    expect(load.mock.calls[0][1]).toEqual(['c1']);
    expect(parents[0].customer).toBeNull();
  });

  it('does not call the loader when no parent has an id', async () => {
    const load = vi.fn(() => Promise.resolve([] as { id: string }[]));
    const parents: Record<string, unknown>[] = [{ customer_id: null }, {}];
    await expandById('customer_id', 'customer', load)({ db: fakeDb }, parents);
    expect(load).not.toHaveBeenCalled();
    expect(parents.map((parent) => parent.customer)).toEqual([null, null]);
  });

  it('keeps the id field beside the expanded object', async () => {
    const parents: Record<string, unknown>[] = [{ customer_id: 'c1' }];
    await expandById('customer_id', 'customer', () => Promise.resolve([{ id: 'c1' }]))({ db: fakeDb }, parents);
    expect(parents[0].customer_id).toBe('c1');
  });
});
