/**
 * Account payment methods: setup intents (E12), attach, retrieve, default, removal, the list
 * (E19), and the refusal of raw card or bank numbers on any route.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isSandboxMethodDetached } from '../../shared/payments/sandbox-processor';
import { expectError, unchecked, type BodyFor } from '../support/client';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { confirmedSetupIntent, seedAccount } from '../support/payment-method-fixtures';

const api = setupTestApi();
let owner: TestEntity;
let other: TestEntity;

beforeAll(async () => {
  owner = await api.newEntity();
  other = await api.newEntity();
});

async function attach(accountId: string, token = 'pm_card_visa', extra: Partial<BodyFor<'POST', '/v1/accounts/{id}/payment-methods/attach'>> = {}) {
  const setupIntentId = await confirmedSetupIntent(api, owner, accountId, token);
  return api.request('POST', `/v1/accounts/${accountId}/payment-methods/attach`, { key: owner.secret, body: { setup_intent_id: setupIntentId, ...extra } });
}

const confirm = (setupIntentId: string, token: string, key = owner.secret) =>
  api.request('POST', `/v1/test_helpers/setup_intents/${setupIntentId}/confirm`, { key: key, body: { payment_method: token } });

describe('POST /v1/accounts/{id}/payment-methods (E12)', () => {
  it('creates a setup intent at the processor and returns what the client library needs', async () => {
    const accountId = await seedAccount(api, owner);
    const response = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'card' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      object: 'setup_intent',
      livemode: false,
      client_secret: expect.stringMatching(/^seti_sbx_\w+_secret_\w+$/),
      setup_intent_id: expect.stringMatching(/^seti_sbx_/),
      status: 'requires_payment_method',
      publishable_key: 'pk_test_sandbox',
    });
    expect(response.body.client_secret.startsWith(response.body.setup_intent_id)).toBe(true);
  });

  it('honours Idempotency-Key: a retry returns the same setup intent', async () => {
    const accountId = await seedAccount(api, owner);
    const headers = { 'Idempotency-Key': `seti-${accountId}` };
    const first = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, {
      key: owner.secret,
      body: { type: 'us_bank_account' },
      headers: headers,
    });
    const second = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, {
      key: owner.secret,
      body: { type: 'us_bank_account' },
      headers: headers,
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.setup_intent_id).toBe(first.body.setup_intent_id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses bad input with the param named, writing nothing', async () => {
    const accountId = await seedAccount(api, owner);
    const before = await tenantRowCounts(owner.entity.id);
    expectError(
      await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: unchecked({ type: 'paypal' }) }),
      400,
      'parameter_invalid',
      'type',
    );
    expectError(
      await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: unchecked({}) }),
      400,
      'parameter_missing',
      'type',
    );
    expectError(
      await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: unchecked({ type: 'card', extra: 1 }) }),
      400,
      'parameter_unknown',
      'extra',
    );
    expectError(
      await api.request('POST', `/v1/accounts/00000000-0000-4000-8000-00000000abcd/payment-methods`, { key: owner.secret, body: { type: 'card' } }),
      404,
      'not_found',
      'id',
    );
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it("is a 404 for another entity's account, and a 422 for an archived account", async () => {
    const foreign = await seedAccount(api, other);
    expectError(await api.request('POST', `/v1/accounts/${foreign}/payment-methods`, { key: owner.secret, body: { type: 'card' } }), 404, 'not_found', 'id');
    const archived = await seedAccount(api, owner);
    expect((await api.request('POST', `/v1/accounts/${archived}/archive`, { key: owner.secret, body: {} })).status).toBe(200);
    expectError(
      await api.request('POST', `/v1/accounts/${archived}/payment-methods`, { key: owner.secret, body: { type: 'card' } }),
      422,
      'party_archived',
      'id',
    );
  });
});

describe('POST /v1/accounts/{id}/payment-methods/attach', () => {
  it('saves a confirmed card with display details only; the first method becomes the default', async () => {
    const accountId = await seedAccount(api, owner);
    const response = await attach(accountId, 'pm_card_visa');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      object: 'account_payment_method',
      account_id: accountId,
      entity_id: owner.entity.id,
      processor_payment_method_id: expect.stringMatching(/^pm_sbx_/),
      type: 'card',
      card_brand: 'visa',
      last_four: '4242',
      exp_month: 12,
      exp_year: 2034,
      funding_type: 'credit',
      bank_name: null,
      routing_last_four: null,
      is_default: true,
      is_active: true,
    });
    expect(api.published.some((e) => e.type === 'payment_method.attached' && e.data.object.id === response.body.id)).toBe(true);
  });

  it('saves an ACH account; is_default true demotes the previous default', async () => {
    const accountId = await seedAccount(api, owner);
    const card = await attach(accountId, 'pm_card_mastercard');
    const second = await attach(accountId, 'pm_card_amex');
    expect(second.body.is_default).toBe(false);
    const bank = await attach(accountId, 'pm_usBankAccount_success', { is_default: true });
    expect(bank.status).toBe(201);
    expect(bank.body).toMatchObject({
      type: 'ach',
      bank_name: 'STRIPE TEST BANK',
      last_four: '6789',
      routing_last_four: '0000',
      account_type: 'checking',
      verification_status: 'verified',
      card_brand: null,
      exp_month: null,
      is_default: true,
    });
    const demoted = await api.request('GET', `/v1/accounts/${accountId}/payment-methods/${card.body.id}`, { key: owner.secret });
    expect(demoted.body.is_default).toBe(false);
  });

  it('refuses unconfirmed, unverified, unknown, foreign and reused setup intents, writing nothing', async () => {
    const accountId = await seedAccount(api, owner);
    const pending = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'card' } });
    const declined = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'card' } });
    expect((await confirm(declined.body.setup_intent_id, 'pm_card_chargeDeclined')).body.status).toBe('requires_payment_method');
    const microdeposits = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'us_bank_account' } });
    expect((await confirm(microdeposits.body.setup_intent_id, 'pm_usBankAccount_microdeposits')).body.status).toBe('requires_action');
    const otherAccount = await seedAccount(api, owner);
    const elsewhere = await confirmedSetupIntent(api, owner, otherAccount);
    const foreignAccount = await seedAccount(api, other);
    const foreignIntent = await confirmedSetupIntent(api, other, foreignAccount);
    const used = await attach(accountId);
    expect(used.status).toBe(201);
    const usedIntent = (
      await owner.sql((db) => db.one<{ s: string }>('SELECT processor_setup_intent_id AS s FROM account_payment_methods WHERE id = $1', [used.body.id]))
    ).s;

    const before = await tenantRowCounts(owner.entity.id);
    const path = `/v1/accounts/${accountId}/payment-methods/attach` as const;
    const notSucceeded = await api.request('POST', path, { key: owner.secret, body: { setup_intent_id: pending.body.setup_intent_id } });
    expectError(notSucceeded, 422, 'setup_intent_not_succeeded', 'setup_intent_id');
    expect(notSucceeded.error.setup_intent_status).toBe('requires_payment_method');
    expectError(
      await api.request('POST', path, { key: owner.secret, body: { setup_intent_id: declined.body.setup_intent_id } }),
      422,
      'setup_intent_not_succeeded',
      'setup_intent_id',
    );
    const unverified = await api.request('POST', path, { key: owner.secret, body: { setup_intent_id: microdeposits.body.setup_intent_id } });
    expectError(unverified, 422, 'setup_intent_not_succeeded', 'setup_intent_id');
    expect(unverified.error.setup_intent_status).toBe('requires_action');
    expectError(await api.request('POST', path, { key: owner.secret, body: { setup_intent_id: 'seti_sbx_nonexistent' } }), 404, 'not_found', 'setup_intent_id');
    expectError(await api.request('POST', path, { key: owner.secret, body: { setup_intent_id: elsewhere } }), 404, 'not_found', 'setup_intent_id');
    expectError(await api.request('POST', path, { key: owner.secret, body: { setup_intent_id: foreignIntent } }), 404, 'not_found', 'setup_intent_id');
    expectError(
      await api.request('POST', path, { key: owner.secret, body: { setup_intent_id: usedIntent } }),
      409,
      'payment_method_already_attached',
      'setup_intent_id',
    );
    expectError(await api.request('POST', path, { key: owner.secret, body: unchecked({}) }), 400, 'parameter_missing', 'setup_intent_id');
    expectError(
      await api.request('POST', path, { key: owner.secret, body: unchecked({ setup_intent_id: elsewhere, is_default: 'yes' }) }),
      400,
      'parameter_invalid',
      'is_default',
    );
    expectError(
      await api.request('POST', `/v1/accounts/${foreignAccount}/payment-methods/attach`, { key: owner.secret, body: { setup_intent_id: foreignIntent } }),
      404,
      'not_found',
      'id',
    );
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('two parallel attaches with is_default true leave exactly one default', async () => {
    for (const existing of [false, true]) {
      const accountId = await seedAccount(api, owner);
      if (existing) expect((await attach(accountId)).status).toBe(201);
      const [a, b] = await Promise.all([confirmedSetupIntent(api, owner, accountId), confirmedSetupIntent(api, owner, accountId, 'pm_card_discover')]);
      const path = `/v1/accounts/${accountId}/payment-methods/attach` as const;
      const results = await Promise.all([
        api.request('POST', path, { key: owner.secret, body: { setup_intent_id: a, is_default: true } }),
        api.request('POST', path, { key: owner.secret, body: { setup_intent_id: b, is_default: true } }),
      ]);
      expect(results.map((r) => r.status)).toEqual([201, 201]);
      const list = await api.request('GET', '/v1/account-payment-methods', { key: owner.secret, query: { account_id: accountId } });
      expect(list.body.data).toHaveLength(existing ? 3 : 2);
      expect(list.body.data.filter((m) => m.is_default)).toHaveLength(1);
    }
  });

  it('the same setup intent attached twice at once is saved once', async () => {
    const accountId = await seedAccount(api, owner);
    const intent = await confirmedSetupIntent(api, owner, accountId);
    const path = `/v1/accounts/${accountId}/payment-methods/attach` as const;
    const results = await Promise.all([
      api.request('POST', path, { key: owner.secret, body: { setup_intent_id: intent } }),
      api.request('POST', path, { key: owner.secret, body: { setup_intent_id: intent } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('GET, PATCH and DELETE /v1/accounts/{id}/payment-methods/{payment_method_id}', () => {
  it('moves the default, removes softly (detached at the processor), promotes the newest remaining method', async () => {
    const accountId = await seedAccount(api, owner);
    const first = (await attach(accountId)).body;
    const second = (await attach(accountId, 'pm_card_mastercard')).body;
    const third = (await attach(accountId, 'pm_card_amex')).body;
    const base = `/v1/accounts/${accountId}/payment-methods` as const;

    const got = await api.request('GET', `${base}/${second.id}`, { key: owner.secret });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(second);

    const patched = await api.request('PATCH', `${base}/${second.id}`, { key: owner.secret, body: { is_default: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.is_default).toBe(true);
    expect((await api.get(owner, `${base}/${first.id}`)).is_default).toBe(false);
    expectError(
      await api.request('PATCH', `${base}/${second.id}`, { key: owner.secret, body: unchecked({ is_default: false }) }),
      400,
      'parameter_invalid',
      'is_default',
    );
    expectError(
      await api.request('PATCH', `${base}/${second.id}`, { key: owner.secret, body: unchecked({ is_default: true, last_four: '1111' }) }),
      400,
      'parameter_unknown',
      'last_four',
    );

    const removed = await api.request('DELETE', `${base}/${second.id}`, { key: owner.secret });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: second.id, is_active: false, is_default: false });
    expect(await owner.sql((db) => isSandboxMethodDetached(db, second.processor_payment_method_id))).toBe(true);
    expect((await api.get(owner, `${base}/${third.id}`)).is_default).toBe(true);
    expect(api.published.some((e) => e.type === 'payment_method.detached' && e.data.object.id === second.id)).toBe(true);

    const otherAccount = await seedAccount(api, owner);
    const before = await tenantRowCounts(owner.entity.id);
    expectError(await api.request('DELETE', `${base}/${second.id}`, { key: owner.secret }), 409, 'payment_method_inactive', 'payment_method_id');
    expectError(
      await api.request('PATCH', `${base}/${second.id}`, { key: owner.secret, body: { is_default: true } }),
      409,
      'payment_method_inactive',
      'payment_method_id',
    );
    expectError(await api.request('GET', `${base}/00000000-0000-4000-8000-00000000abcd`, { key: owner.secret }), 404, 'not_found', 'payment_method_id');
    // A method addressed under another account of the same entity is not found either.
    expectError(await api.request('GET', `/v1/accounts/${otherAccount}/payment-methods/${first.id}`, { key: owner.secret }), 404, 'not_found');
    expectError(await api.request('GET', `${base}/${first.id}`, { key: other.secret }), 404, 'not_found');
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });
});

describe('GET /v1/account-payment-methods (E19)', () => {
  let listOwner: TestEntity;
  let ids: string[];
  let accountA: string;

  beforeAll(async () => {
    listOwner = await api.newEntity();
    accountA = await seedAccount(api, listOwner);
    const accountB = await seedAccount(api, listOwner);
    ids = [];
    for (let i = 0; i < 27; i++) {
      const accountId = i % 3 === 0 ? accountB : accountA;
      const token = i % 4 === 0 ? 'pm_usBankAccount_success' : 'pm_card_visa';
      const intent = await confirmedSetupIntent(api, listOwner, accountId, token);
      const attached = await api.request('POST', `/v1/accounts/${accountId}/payment-methods/attach`, {
        key: listOwner.secret,
        body: { setup_intent_id: intent },
      });
      ids.push(attached.body.id);
    }
    await api.request('DELETE', `/v1/accounts/${accountA}/payment-methods/${ids[1]}`, { key: listOwner.secret });
    await api.request('DELETE', `/v1/accounts/${accountA}/payment-methods/${ids[2]}`, { key: listOwner.secret });
  });

  const list = (query: Record<string, string> = {}, key = listOwner.secret) => api.request('GET', '/v1/account-payment-methods', { key, query });

  it('lists every account newest first, 25 by default, with keyset paging by payment method id', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/account-payment-methods' });
    expect(first.body.data).toHaveLength(25);
    const newestFirst = [...ids].reverse();
    expect(first.body.data.map((m) => m.id)).toEqual(newestFirst.slice(0, 25));
    expect(first.body.next_cursor).toBe(newestFirst[24]);
    const second = await list({ starting_after: first.body.next_cursor! });
    expect(second.body.data.map((m) => m.id)).toEqual(newestFirst.slice(25));
    expect(second.body.has_more).toBe(false);
    expect(second.body.next_cursor).toBeNull();
    expect((await list({ limit: '500' })).body.data).toHaveLength(27);
  });

  it('filters by account, type, default and active state; omitting is_active returns removed methods too', async () => {
    const all = (await list({ limit: '500' })).body.data;
    expect(all.filter((m) => !m.is_active)).toHaveLength(2);
    const ofA = (await list({ account_id: accountA, limit: '500' })).body.data;
    expect(ofA.length).toBe(18);
    expect(ofA.every((m) => m.account_id === accountA)).toBe(true);
    const ach = (await list({ type: 'ach', limit: '500' })).body.data;
    expect(ach.length).toBe(7);
    expect(ach.every((m) => m.type === 'ach')).toBe(true);
    const defaults = (await list({ is_default: 'true' })).body.data;
    expect(defaults).toHaveLength(2);
    expect((await list({ is_active: 'false' })).body.data.map((m) => m.id).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await list({ is_active: 'true', limit: '500' })).body.data).toHaveLength(25);
  });

  it('refuses bad queries with the param named', async () => {
    expectError(await list({ limit: '501' }), 400, 'parameter_invalid', 'limit');
    expectError(await list({ limit: '0' }), 400, 'parameter_invalid', 'limit');
    expectError(await list({ type: 'us_bank_account' }), 400, 'parameter_invalid', 'type');
    expectError(await list({ is_default: 'yes' }), 400, 'parameter_invalid', 'is_default');
    expectError(await list({ starting_after: ids[0] }, owner.secret), 400, 'parameter_invalid', 'starting_after');
  });

  it('accepts accounts:read or payments:read; a key with neither gets 403', async () => {
    const keyWith = async (scopes: string[]) =>
      (await api.request('POST', `/v1/entities/${listOwner.entity.id}/api-keys`, { key: listOwner.secret, body: { scopes } })).body.secret;
    expect((await list({}, await keyWith(['payments:read']))).status).toBe(200);
    expect((await list({}, await keyWith(['accounts:read']))).status).toBe(200);
    expect((await list({}, await keyWith(['accounts:write']))).status).toBe(200);
    const refused = await list({}, await keyWith(['orders:read']));
    expectError(refused, 403, 'insufficient_scope');
    expect(refused.error.required).toBe('accounts:read');
  });
});

describe('raw card or bank credentials in any request body', () => {
  const PAN = '4111111111111111';
  let logged: string[];

  afterEach(() => vi.restoreAllMocks());

  function captureLogs() {
    logged = [];
    const keep = (...args: unknown[]) => logged.push(args.map(String).join(' '));
    vi.spyOn(console, 'log').mockImplementation(keep);
    vi.spyOn(console, 'error').mockImplementation(keep);
    vi.spyOn(console, 'warn').mockImplementation(keep);
    // Powertools Logger writes to the process streams through a Console of its own.
    const write = (chunk: unknown) => keep(chunk) > 0;
    vi.spyOn(process.stdout, 'write').mockImplementation(write);
    vi.spyOn(process.stderr, 'write').mockImplementation(write);
  }

  it('refuses them with 400 and the JSON path on several routes, storing and logging nothing', async () => {
    const accountId = await seedAccount(api, owner);
    const before = await tenantRowCounts(owner.entity.id);
    captureLogs();
    const cases: [string, string, unknown, string, string][] = [
      [
        'POST',
        `/v1/accounts/${accountId}/payment-methods`,
        { type: 'card', card: { number: PAN, exp_month: 12, exp_year: 2030, cvc: '123' } },
        'raw_card_data_refused',
        'card.number',
      ],
      ['POST', `/v1/accounts/${accountId}/payment-methods/attach`, { setup_intent_id: 'seti_x', card_number: PAN }, 'raw_card_data_refused', 'card_number'],
      ['POST', '/v1/accounts', { name: 'Raw', metadata: { cvv: '999' } }, 'raw_card_data_refused', 'metadata.cvv'],
      ['PATCH', `/v1/accounts/${accountId}`, { notes: 'x', metadata: { card: '4111 1111 1111 1111' } }, 'raw_card_data_refused', 'metadata.card'],
      ['POST', '/v1/locations', { name: 'Raw bank', routing_number: '110000000' }, 'raw_bank_data_refused', 'routing_number'],
      [
        'POST',
        `/v1/accounts/${accountId}/payment-methods`,
        { type: 'us_bank_account', us_bank_account: { account_number: '000123456789' } },
        'raw_bank_data_refused',
        'us_bank_account.account_number',
      ],
      [
        'POST',
        '/v1/payments/multi-invoice-apply',
        { account_id: accountId, amount: 1, route_unapplied: 'credit', lines: [{ number: PAN, cvc: '1' }] },
        'raw_card_data_refused',
        'lines[0].number',
      ],
    ];
    for (const [method, path, body, code, param] of cases) {
      // Raw credentials on many routes, from a table: the untyped escape hatch.
      const response = await api.raw(method, path, { key: owner.secret, body, headers: { 'Idempotency-Key': `raw-${param}-${accountId}` } });
      expectError(response, 400, code, param);
      // Without the request id: a random id can hold these digits (one did: 186fe0aa-4111-...).
      const { request_id: _requestId, ...envelope } = JSON.parse(response.text) as Record<string, unknown>;
      expect(JSON.stringify(envelope)).not.toMatch(/4111|110000000/);
    }
    vi.restoreAllMocks();
    // The numbers whole: log lines carry random ids, which can hold a run like 4111.
    expect(logged.join('\n')).not.toMatch(/4111 ?1111 ?1111 ?1111|110000000|000123456789/);
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);

    // The refusal was not stored under its Idempotency-Key: a clean retry with the same key runs.
    const retry = await api.request('POST', '/v1/locations', {
      key: owner.secret,
      body: { name: `Clean ${accountId}` },
      headers: { 'Idempotency-Key': `raw-routing_number-${accountId}` },
    });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('leaves account_number on accounts and vendors alone (a customer reference, not a bank account)', async () => {
    const created = await api.request('POST', '/v1/accounts', { key: owner.secret, body: { name: 'Numbered account', account_number: '000123456789' } });
    expect(created.status, created.text).toBe(201);
    // A card number is refused under any name, account_number included (raw-credentials.ts); a reference is not.
    const vendor = await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'Numbered vendor', account_number: 'V-000987654321' } });
    expect(vendor.status).toBe(201);
  });
});

describe('POST /v1/test_helpers/setup_intents/{setup_intent_id}/confirm (sandbox)', () => {
  it('lets an integrator finish create → confirm → attach → list over HTTP', async () => {
    const accountId = await seedAccount(api, owner);
    const intent = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'card' } });
    expect(intent.status).toBe(201);
    const confirmed = await confirm(intent.body.setup_intent_id, 'pm_card_mastercard');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({
      object: 'setup_intent',
      livemode: false,
      setup_intent_id: intent.body.setup_intent_id,
      status: 'succeeded',
      type: 'card',
      payment_method: expect.stringMatching(/^pm_sbx_/),
    });
    const attached = await api.request('POST', `/v1/accounts/${accountId}/payment-methods/attach`, {
      key: owner.secret,
      body: { setup_intent_id: intent.body.setup_intent_id },
    });
    expect(attached.status, attached.text).toBe(201);
    expect(attached.body).toMatchObject({
      account_id: accountId,
      processor_payment_method_id: confirmed.body.payment_method,
      type: 'card',
      card_brand: 'mastercard',
      last_four: '4444',
      is_default: true,
    });
    const listed = await api.request('GET', '/v1/account-payment-methods', { key: owner.secret, query: { account_id: accountId } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((method) => method.id)).toEqual([attached.body.id]);

    const bank = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'us_bank_account' } });
    expect((await confirm(bank.body.setup_intent_id, 'pm_usBankAccount_success')).body.status).toBe('succeeded');
    const ach = await api.request('POST', `/v1/accounts/${accountId}/payment-methods/attach`, {
      key: owner.secret,
      body: { setup_intent_id: bank.body.setup_intent_id },
    });
    expect(ach.status).toBe(201);
    expect(ach.body).toMatchObject({ type: 'ach', bank_name: 'STRIPE TEST BANK', verification_status: 'verified', is_default: false });
  });

  it('lets a declined card be confirmed again with another token', async () => {
    const accountId = await seedAccount(api, owner);
    const intent = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'card' } });
    expect((await confirm(intent.body.setup_intent_id, 'pm_card_chargeDeclined')).body).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
    });
    expect((await confirm(intent.body.setup_intent_id, 'pm_card_visa')).body.status).toBe('succeeded');
  });

  it('refuses unknown, foreign, mismatched and already confirmed intents, writing nothing', async () => {
    const accountId = await seedAccount(api, owner);
    const card = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'card' } });
    const done = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: owner.secret, body: { type: 'card' } });
    await confirm(done.body.setup_intent_id, 'pm_card_visa');
    const foreignAccount = await seedAccount(api, other);
    const foreign = await api.request('POST', `/v1/accounts/${foreignAccount}/payment-methods`, { key: other.secret, body: { type: 'card' } });
    const before = await tenantRowCounts(owner.entity.id);
    expectError(await confirm('seti_sbx_unknown', 'pm_card_visa'), 404, 'not_found', 'setup_intent_id');
    expectError(await confirm(foreign.body.setup_intent_id, 'pm_card_visa'), 404, 'not_found', 'setup_intent_id');
    expectError(await confirm(card.body.setup_intent_id, 'pm_usBankAccount_success'), 400, 'parameter_invalid', 'payment_method');
    expectError(await confirm(card.body.setup_intent_id, 'pm_card_unknown'), 400, 'parameter_invalid', 'payment_method');
    const again = await confirm(done.body.setup_intent_id, 'pm_card_mastercard');
    expectError(again, 409, 'setup_intent_unexpected_state', 'setup_intent_id');
    expect(again.error.setup_intent_status).toBe('succeeded');
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    // The foreign entity's intent is untouched.
    const foreignAttach = await api.request('POST', `/v1/accounts/${foreignAccount}/payment-methods/attach`, {
      key: other.secret,
      body: { setup_intent_id: foreign.body.setup_intent_id },
    });
    expectError(foreignAttach, 422, 'setup_intent_not_succeeded');
  });

  it('refuses live keys with 403 test_mode_required', async () => {
    const live = await api.newEntity({ mode: 'live' });
    const accountId = await seedAccount(api, live);
    const intent = await api.request('POST', `/v1/accounts/${accountId}/payment-methods`, { key: live.secret, body: { type: 'card' } });
    expect(intent.status).toBe(201);
    const before = await tenantRowCounts(live.entity.id);
    expectError(await confirm(intent.body.setup_intent_id, 'pm_card_visa', live.secret), 403, 'test_mode_required');
    expect(await tenantRowCounts(live.entity.id)).toEqual(before);
  });
});
