/** The conventions every endpoint shares: pagination, ETags, request ids, query validation. */
import { describe, expect, it } from 'vitest';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();

async function seedLocations(secret: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await api.request('POST', '/v1/locations', { key: secret, body: { name: `L${i}` } })).body.id);
  return ids.reverse(); // newest first, as lists return them
}

describe('cursor pagination', () => {
  it('walks forward with starting_after and back with ending_before, newest first, without gaps or repeats', async () => {
    const { secret } = await api.newEntity();
    const ids = await seedLocations(secret, 7);
    const page1 = await api.request('GET', '/v1/locations', { key: secret, query: { limit: '3' } });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/locations', next_cursor: ids[2] });
    expect(page1.body.data.map((l) => l.id)).toEqual(ids.slice(0, 3));
    const page2 = await api.request('GET', '/v1/locations', { key: secret, query: { limit: '3', starting_after: page1.body.next_cursor! } });
    expect(page2.body.data.map((l) => l.id)).toEqual(ids.slice(3, 6));
    const page3 = await api.request('GET', '/v1/locations', { key: secret, query: { limit: '3', starting_after: page2.body.next_cursor! } });
    expect(page3.body.data.map((l) => l.id)).toEqual(ids.slice(6));
    expect(page3.body).toMatchObject({ has_more: false, next_cursor: null });
    const back = await api.request('GET', '/v1/locations', { key: secret, query: { limit: '2', ending_before: ids[4] } });
    expect(back.body.data.map((l) => l.id)).toEqual(ids.slice(2, 4));
    expect(back.body).toMatchObject({ has_more: true, next_cursor: ids[2] });
    const first = await api.request('GET', '/v1/locations', { key: secret, query: { limit: '5', ending_before: ids[2] } });
    expect(first.body.data.map((l) => l.id)).toEqual(ids.slice(0, 2));
    expect(first.body.has_more).toBe(false);
  });

  it('defaults to 25, bounds limit, and rejects bad cursors with 400 naming the parameter', async () => {
    const { secret } = await api.newEntity();
    const other = await api.newEntity();
    const foreign = (await api.request('POST', '/v1/locations', { key: other.secret, body: { name: 'Theirs' } })).body.id;
    await seedLocations(secret, 1);
    for (const [query, param] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ starting_after: 'nope' }, 'starting_after'],
      [{ starting_after: foreign }, 'starting_after'],
      [{ ending_before: foreign }, 'ending_before'],
      [{ limit: ['1', '2'] }, 'limit'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const response = await api.request('GET', '/v1/locations', { key: secret, query: query as Record<string, string | string[]> });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.error.param, JSON.stringify(query)).toBe(param);
    }
    const both = await api.request('GET', '/v1/locations', { key: secret, query: { starting_after: foreign, ending_before: foreign } });
    expect(both.status).toBe(400);
  });
});

describe('ETags and conditional requests', () => {
  it('answers If-None-Match with 304 while unchanged and 200 after a change', async () => {
    const { secret } = await api.newEntity();
    const location = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Tagged' } })).body;
    const first = await api.request('GET', `/v1/locations/${location.id}`, { key: secret });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const cached = await api.request('GET', `/v1/locations/${location.id}`, { key: secret, headers: { 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);
    const weak = await api.request('GET', `/v1/locations/${location.id}`, { key: secret, headers: { 'If-None-Match': `W/${etag}` } });
    expect(weak.status).toBe(304);
    await api.request('PATCH', `/v1/locations/${location.id}`, { key: secret, body: { city: 'Reno' } });
    const changed = await api.request('GET', `/v1/locations/${location.id}`, { key: secret, headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const list = await api.request('GET', '/v1/locations', { key: secret });
    expect((await api.request('GET', '/v1/locations', { key: secret, headers: { 'If-None-Match': list.headers.get('etag')! } })).status).toBe(304);
  });

  it('refuses PATCH and DELETE with a stale If-Match with 412 and applies them with the current one', async () => {
    const { secret } = await api.newEntity();
    const location = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Guarded' } })).body;
    await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Other' } });
    const stale = (await api.request('GET', `/v1/locations/${location.id}`, { key: secret })).headers.get('etag')!;
    await api.request('PATCH', `/v1/locations/${location.id}`, { key: secret, body: { city: 'Boise' } });
    const refused = await api.request('PATCH', `/v1/locations/${location.id}`, { key: secret, headers: { 'If-Match': stale }, body: { city: 'Lost update' } });
    expect(refused.status).toBe(412);
    expect(refused.error).toMatchObject({ code: 'precondition_failed', param: 'If-Match' });
    expect((await api.get(secret, `/v1/locations/${location.id}`)).city).toBe('Boise');
    const current = (await api.request('GET', `/v1/locations/${location.id}`, { key: secret })).headers.get('etag')!;
    const applied = await api.request('PATCH', `/v1/locations/${location.id}`, { key: secret, headers: { 'If-Match': current }, body: { city: 'Provo' } });
    expect(applied.status).toBe(200);
    const manufacturer = (await api.request('POST', '/v1/manufacturers', { key: secret, body: { name: 'Guarded' } })).body;
    const staleDelete = await api.request('DELETE', `/v1/manufacturers/${manufacturer.id}`, { key: secret, headers: { 'If-Match': '"nope"' } });
    expect(staleDelete.status).toBe(412);
    const tag = (await api.request('GET', `/v1/manufacturers/${manufacturer.id}`, { key: secret })).headers.get('etag')!;
    expect((await api.request('DELETE', `/v1/manufacturers/${manufacturer.id}`, { key: secret, headers: { 'If-Match': tag } })).status).toBe(200);
  });
});

describe('request ids and unknown routes', () => {
  it('returns a Request-Id header on success and on errors, equal to the envelope request_id', async () => {
    const { secret } = await api.newEntity();
    const ok = await api.request('GET', '/v1/locations', { key: secret });
    expect(ok.headers.get('request-id')).toMatch(/[\w-]{20,}/);
    const error = await api.request('GET', '/v1/locations/00000000-0000-0000-0000-000000000000', { key: secret });
    expect(error.status).toBe(404);
    expect(error.error.request_id).toBe(error.headers.get('request-id'));
    const unknown = await api.raw('GET', '/v1/nothing-here', { key: secret });
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'route_not_found', type: 'not_found' });
  });
});
