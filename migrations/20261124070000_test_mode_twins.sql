-- Up Migration

-- Test mode apart from live mode. Every entity becomes a pair of rows sharing one code: the live
-- entity and its test-mode twin (livemode false, live_entity_id naming the live one). A key acts in
-- the row of its own mode, so row level security (app.entity_id) keeps the two data sets apart
-- with the one policy every table already has.
ALTER TABLE entities
  ADD COLUMN livemode boolean NOT NULL DEFAULT true,
  ADD COLUMN live_entity_id uuid,
  -- The mode of the keys that act in this row, for the foreign key from api_keys below.
  ADD COLUMN key_mode text NOT NULL GENERATED ALWAYS AS (CASE WHEN livemode THEN 'live' ELSE 'test' END) STORED;
ALTER TABLE entities DROP CONSTRAINT entities_code_key;

-- A user is a person of the account: the same id in both modes, so keys, approvals and permission
-- checks of either mode name the same user. The identity of a user row is (entity_id, id), which
-- every foreign key to users already uses.
ALTER TABLE users DROP CONSTRAINT users_pkey;

-- The data below must see every entity. The migrating role owns these tables, and an owner is
-- exempt from row level security unless it is forced, so forcing is lifted for this transaction only.
ALTER TABLE entities NO FORCE ROW LEVEL SECURITY;
ALTER TABLE users NO FORCE ROW LEVEL SECURITY;
ALTER TABLE api_keys NO FORCE ROW LEVEL SECURITY;
ALTER TABLE gl_accounts NO FORCE ROW LEVEL SECURITY;

-- Existing rows stay where they are: an entity that ever had a live key holds live data (its
-- records were made on books a live key could see), and gets an empty test twin; an entity that
-- only ever had test keys (the local demo, sandbox entities, benchmarks) holds test data, becomes
-- the twin, and gets a new, empty live entity. Keys of the other mode move to the new row; the
-- users are mirrored into it; the new row gets the system GL accounts the old one has.
DO $$
DECLARE
  e record;
  new_id uuid;
  holds_live boolean;
BEGIN
  FOR e IN SELECT id, code, name FROM entities ORDER BY created_at, id LOOP
    new_id := gen_random_uuid();
    holds_live := EXISTS (SELECT 1 FROM api_keys k WHERE k.entity_id = e.id AND k.mode = 'live');
    IF holds_live THEN
      INSERT INTO entities (id, code, name, livemode, live_entity_id) VALUES (new_id, e.code, e.name, false, e.id);
    ELSE
      UPDATE entities SET livemode = false, updated_at = now() WHERE id = e.id;
      INSERT INTO entities (id, code, name, livemode) VALUES (new_id, e.code, e.name, true);
      UPDATE entities SET live_entity_id = new_id WHERE id = e.id;
    END IF;
    INSERT INTO users (id, entity_id, email, name, permissions, is_active, created_at, updated_at)
    SELECT u.id, new_id, u.email, u.name, u.permissions, u.is_active, u.created_at, u.updated_at FROM users u WHERE u.entity_id = e.id;
    UPDATE api_keys SET entity_id = new_id WHERE entity_id = e.id AND mode = CASE WHEN holds_live THEN 'test' ELSE 'live' END;
    INSERT INTO gl_accounts (id, entity_id, code, name, type, subtype, system_key, bank_account_id)
    SELECT gen_random_uuid(), new_id, g.code, g.name, g.type, g.subtype, g.system_key, CASE WHEN g.subtype = 'bank' THEN gen_random_uuid() END
      FROM gl_accounts g WHERE g.entity_id = e.id AND g.system_key IS NOT NULL;
  END LOOP;
END $$;

ALTER TABLE entities FORCE ROW LEVEL SECURITY;
ALTER TABLE users FORCE ROW LEVEL SECURITY;
ALTER TABLE api_keys FORCE ROW LEVEL SECURITY;
ALTER TABLE gl_accounts FORCE ROW LEVEL SECURITY;

-- One code, two rows: the live entity and its twin. The twin names its live entity and carries
-- its code (the key string shows the code, whichever mode it is).
ALTER TABLE entities ADD CONSTRAINT entities_id_code_unique UNIQUE (id, code);
ALTER TABLE entities ADD CONSTRAINT entities_code_mode_unique UNIQUE (code, livemode);
ALTER TABLE entities ADD CONSTRAINT entities_one_twin UNIQUE (live_entity_id);
ALTER TABLE entities ADD CONSTRAINT entities_twin_links_live CHECK (livemode = (live_entity_id IS NULL));
ALTER TABLE entities ADD CONSTRAINT entities_twin_of FOREIGN KEY (live_entity_id, code) REFERENCES entities (id, code);

-- A key belongs to the entity of its mode (the authenticator checks the pair as well).
ALTER TABLE entities ADD CONSTRAINT entities_id_key_mode_unique UNIQUE (id, key_mode);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_entity_mode FOREIGN KEY (entity_id, mode) REFERENCES entities (id, key_mode);

-- Down Migration
-- Only a database whose twins hold nothing but what the up step put there can go down: a twin with
-- records of its own makes the DELETE fail on their foreign keys, which is the intended refusal.
ALTER TABLE entities NO FORCE ROW LEVEL SECURITY;
ALTER TABLE users NO FORCE ROW LEVEL SECURITY;
ALTER TABLE api_keys NO FORCE ROW LEVEL SECURITY;
ALTER TABLE gl_accounts NO FORCE ROW LEVEL SECURITY;
ALTER TABLE api_keys DROP CONSTRAINT api_keys_entity_mode;
ALTER TABLE entities DROP CONSTRAINT entities_id_key_mode_unique, DROP CONSTRAINT entities_twin_of, DROP CONSTRAINT entities_twin_links_live, DROP CONSTRAINT entities_one_twin,
  DROP CONSTRAINT entities_code_mode_unique, DROP CONSTRAINT entities_id_code_unique;
UPDATE api_keys k SET entity_id = t.live_entity_id FROM entities t WHERE t.id = k.entity_id AND NOT t.livemode;
DELETE FROM gl_accounts g USING entities t WHERE t.id = g.entity_id AND NOT t.livemode AND g.system_key IS NOT NULL;
DELETE FROM users u USING entities t WHERE t.id = u.entity_id AND NOT t.livemode;
DELETE FROM entities WHERE NOT livemode;
ALTER TABLE entities ADD CONSTRAINT entities_code_key UNIQUE (code);
ALTER TABLE users ADD PRIMARY KEY (id);
ALTER TABLE entities DROP COLUMN key_mode, DROP COLUMN live_entity_id, DROP COLUMN livemode;
ALTER TABLE entities FORCE ROW LEVEL SECURITY;
ALTER TABLE users FORCE ROW LEVEL SECURITY;
ALTER TABLE api_keys FORCE ROW LEVEL SECURITY;
ALTER TABLE gl_accounts FORCE ROW LEVEL SECURITY;
