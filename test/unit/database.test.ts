import { describe, expect, it } from 'vitest';
import { beginStatement } from '../../shared/db/database';

const ENTITY = '3f1c2b9e-7a44-4d0e-9a43-0c4f1b8e2d11';

describe('beginStatement', () => {
  it('opens a read-write transaction, switches role and pins the entity', () => {
    expect(beginStatement({ role: 'app_user', entityId: ENTITY })).toBe(
      `BEGIN; SELECT set_config('role', 'app_user', true), set_config('app.entity_id', '${ENTITY}', true)`,
    );
  });

  it('opens a READ ONLY transaction when asked', () => {
    expect(beginStatement({ role: 'app_user', entityId: ENTITY, readOnly: true })).toBe(
      `BEGIN READ ONLY; SELECT set_config('role', 'app_user', true), set_config('app.entity_id', '${ENTITY}', true)`,
    );
  });

  it('pins no entity for a role without one', () => {
    expect(beginStatement({ role: 'app_authenticator' })).toBe("BEGIN; SELECT set_config('role', 'app_authenticator', true)");
    expect(beginStatement({ role: 'app_worker', readOnly: true })).toBe("BEGIN READ ONLY; SELECT set_config('role', 'app_worker', true)");
  });

  it('pins the entity for other roles when one is given', () => {
    expect(beginStatement({ role: 'app_worker', entityId: ENTITY })).toContain(`set_config('app.entity_id', '${ENTITY}', true)`);
  });

  it('accepts an upper-case UUID', () => {
    expect(beginStatement({ role: 'app_user', entityId: ENTITY.toUpperCase() })).toContain(ENTITY.toUpperCase());
  });

  it('throws for app_user without an entity', () => {
    expect(() => beginStatement({ role: 'app_user' })).toThrow(/need an entity/);
    expect(() => beginStatement({ role: 'app_user', entityId: '' })).toThrow(/need an entity/);
  });

  it('refuses an empty entity id for other roles rather than skipping the pin', () => {
    expect(() => beginStatement({ role: 'app_worker', entityId: '' })).toThrow(/not a UUID/);
  });

  it.each([
    ["x'; DROP TABLE entities; --"],
    [`${ENTITY}'; DROP TABLE entities; --`],
    [`${ENTITY}', false); SELECT 1; --`],
    [`${ENTITY}\n`],
    [` ${ENTITY}`],
    [ENTITY.replace(/-/g, '')],
    ['not-a-uuid'],
    [`{${ENTITY}}`],
  ])('refuses the non-UUID entity id %j', (entityId) => {
    expect(() => beginStatement({ role: 'app_user', entityId })).toThrow(/not a UUID/);
    expect(() => beginStatement({ role: 'app_worker', entityId })).toThrow();
  });
});
