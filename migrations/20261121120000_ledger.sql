-- Up Migration

-- The general ledger: chart of accounts, journal entries and their lines, accounting periods,
-- recurring journal entry templates, and per-day balances that make as-of-date reports cheap.
--
-- The database itself guarantees what the ledger promises, whatever code writes to it:
--   * a posted entry's lines balance to the cent and match its header (count and total);
--   * posted entries and their lines are immutable (the only change is marking an entry reversed);
--   * no line lands in a period that is closed or awaiting close approval;
--   * gl_daily_balances only ever changes through the journal_lines trigger.

CREATE TABLE gl_accounts (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  code text NOT NULL CHECK (length(code) BETWEEN 1 AND 20),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text,
  type text NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
  subtype text NOT NULL,
  -- Set on the accounts every entity gets (accounts_receivable, accounts_payable, ...); other
  -- modules post to them by this key, never by code or name.
  system_key text,
  -- The bank account this GL account represents (cash balance report, deposits); exactly the bank
  -- subtype has one.
  bank_account_id uuid,
  is_active boolean NOT NULL DEFAULT true,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK ((subtype = 'bank') = (bank_account_id IS NOT NULL))
);
CREATE UNIQUE INDEX gl_accounts_code_unique ON gl_accounts (entity_id, lower(code));
CREATE UNIQUE INDEX gl_accounts_system_key_unique ON gl_accounts (entity_id, system_key) WHERE system_key IS NOT NULL;
CREATE UNIQUE INDEX gl_accounts_bank_account_unique ON gl_accounts (entity_id, bank_account_id) WHERE bank_account_id IS NOT NULL;
CREATE INDEX gl_accounts_list ON gl_accounts (entity_id, created_at DESC, id DESC);

CREATE TABLE accounting_periods (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  period_name text NOT NULL CHECK (length(period_name) BETWEEN 1 AND 100),
  fiscal_year integer NOT NULL CHECK (fiscal_year BETWEEN 1900 AND 9999),
  start_date date NOT NULL,
  end_date date NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'close_requested', 'closed')),
  close_requested_by uuid,
  close_requested_at timestamptz,
  close_approved_by uuid,
  close_approved_at timestamptz,
  closed_by uuid,
  closed_at timestamptz,
  reopened_by uuid,
  reopened_at timestamptz,
  reopen_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK (end_date >= start_date),
  CHECK (status = 'open' OR close_requested_at IS NOT NULL),
  CHECK (status <> 'closed' OR (closed_at IS NOT NULL AND closed_by IS NOT NULL)),
  FOREIGN KEY (entity_id, close_requested_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, close_approved_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, closed_by) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, reopened_by) REFERENCES users (entity_id, id)
);
-- Overlaps are refused by the application under an entity-wide lock (a gist exclusion constraint
-- would need btree_gist, which the embedded PostgreSQL does not ship).
CREATE INDEX accounting_periods_dates ON accounting_periods (entity_id, start_date, end_date);
CREATE INDEX accounting_periods_list ON accounting_periods (entity_id, created_at DESC, id DESC);

CREATE TABLE journal_entries (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  -- Taken when the entry is posted, so posted entries are numbered without gaps.
  entry_number text,
  status text NOT NULL CHECK (status IN ('draft', 'posted', 'reversed')),
  entry_date date NOT NULL,
  memo text,
  source_type text NOT NULL CHECK (source_type ~ '^[a-z][a-z0-9_]{0,63}$'),
  source_id uuid,
  period_id uuid,
  -- A draft's lines, editable until it is posted; posted lines live in journal_lines.
  draft_lines jsonb,
  line_count integer NOT NULL DEFAULT 0,
  -- Sum of the debits, which equals the sum of the credits of a posted entry.
  total_amount numeric(19, 2) NOT NULL DEFAULT 0,
  created_by_user_id uuid,
  posted_by_user_id uuid,
  posted_by_key_id uuid REFERENCES api_keys(id),
  posted_at timestamptz,
  reversal_of_id uuid,
  reversed_by_id uuid,
  reversed_at timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK ((status = 'draft') = (draft_lines IS NOT NULL)),
  CHECK (status = 'draft' OR (entry_number IS NOT NULL AND posted_at IS NOT NULL AND line_count >= 2 AND total_amount > 0)),
  CHECK ((status = 'reversed') = (reversed_by_id IS NOT NULL)),
  FOREIGN KEY (entity_id, period_id) REFERENCES accounting_periods (entity_id, id),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, posted_by_user_id) REFERENCES users (entity_id, id),
  FOREIGN KEY (entity_id, reversal_of_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, reversed_by_id) REFERENCES journal_entries (entity_id, id)
);
CREATE UNIQUE INDEX journal_entries_number_unique ON journal_entries (entity_id, entry_number) WHERE entry_number IS NOT NULL;
-- An entry is reversed at most once, even by two concurrent requests.
CREATE UNIQUE INDEX journal_entries_one_reversal ON journal_entries (entity_id, reversal_of_id) WHERE reversal_of_id IS NOT NULL;
-- A recurring template yields at most one entry per occurrence date, whatever runs it.
CREATE UNIQUE INDEX journal_entries_recurring_occurrence ON journal_entries (entity_id, source_id, entry_date)
  WHERE source_type = 'recurring_journal_template' AND reversal_of_id IS NULL;
CREATE INDEX journal_entries_source ON journal_entries (entity_id, source_type, source_id);
CREATE INDEX journal_entries_list ON journal_entries (entity_id, created_at DESC, id DESC);

CREATE TABLE journal_lines (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  entry_id uuid NOT NULL,
  line_number integer NOT NULL CHECK (line_number >= 1),
  account_id uuid NOT NULL,
  debit numeric(19, 2) NOT NULL DEFAULT 0,
  credit numeric(19, 2) NOT NULL DEFAULT 0,
  memo text,
  -- The entry's date, copied so balances as of a date read one index without a join.
  entry_date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((debit > 0 AND credit = 0) OR (credit > 0 AND debit = 0)),
  UNIQUE (entry_id, line_number),
  FOREIGN KEY (entity_id, entry_id) REFERENCES journal_entries (entity_id, id),
  FOREIGN KEY (entity_id, account_id) REFERENCES gl_accounts (entity_id, id)
);
CREATE INDEX journal_lines_account_date ON journal_lines (entity_id, account_id, entry_date);

-- Debits and credits per account and day, maintained by the journal_lines trigger. A balance as
-- of a date sums (accounts x days) rows instead of every line: the report cost stops growing with
-- the number of lines once every account has activity most days.
CREATE TABLE gl_daily_balances (
  entity_id uuid NOT NULL REFERENCES entities(id),
  account_id uuid NOT NULL,
  balance_date date NOT NULL,
  debit_total numeric(24, 2) NOT NULL,
  credit_total numeric(24, 2) NOT NULL,
  PRIMARY KEY (entity_id, account_id, balance_date),
  FOREIGN KEY (entity_id, account_id) REFERENCES gl_accounts (entity_id, id)
);
CREATE INDEX gl_daily_balances_date ON gl_daily_balances (entity_id, balance_date, account_id) INCLUDE (debit_total, credit_total);

CREATE TABLE recurring_journal_templates (
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text,
  memo text,
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'biweekly', 'monthly', 'quarterly', 'semiannually', 'yearly')),
  -- The schedule's anchor: occurrences are start_date plus whole intervals, clamped to month ends.
  start_date date NOT NULL,
  end_date date,
  -- NULL once the schedule has passed end_date.
  next_run_date date,
  last_run_date date,
  auto_post boolean NOT NULL DEFAULT true,
  is_active boolean NOT NULL DEFAULT true,
  template_lines jsonb NOT NULL,
  livemode boolean NOT NULL DEFAULT false,
  last_error jsonb,
  created_by_user_id uuid NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entity_id, id),
  CHECK (end_date IS NULL OR end_date >= start_date),
  CHECK (jsonb_typeof(template_lines) = 'array'),
  FOREIGN KEY (entity_id, created_by_user_id) REFERENCES users (entity_id, id)
);
CREATE INDEX recurring_journal_templates_list ON recurring_journal_templates (entity_id, created_at DESC, id DESC);
CREATE INDEX recurring_journal_templates_due ON recurring_journal_templates (next_run_date, entity_id) WHERE is_active;

-- Posted lines: each statement that adds lines must leave every entry it touches exactly as its
-- header states (posted, line count, debits = credits = total), outside any closed period; then
-- the day balances are bumped, in key order so two postings never deadlock on them.
CREATE FUNCTION journal_lines_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  SELECT e.id, e.status, e.line_count, e.total_amount, t.n, t.debits, t.credits INTO bad
    FROM (SELECT DISTINCT entity_id, entry_id FROM new_lines) touched
    JOIN journal_entries e ON e.entity_id = touched.entity_id AND e.id = touched.entry_id
    CROSS JOIN LATERAL (
      SELECT count(*) AS n, coalesce(sum(l.debit), 0) AS debits, coalesce(sum(l.credit), 0) AS credits
        FROM journal_lines l WHERE l.entity_id = e.entity_id AND l.entry_id = e.id
    ) t
   WHERE e.status <> 'posted' OR t.n <> e.line_count OR t.debits <> e.total_amount OR t.credits <> e.total_amount
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'journal entry % does not balance or does not match its header (status %, % of % lines, debits %, credits %, total %)',
      bad.id, bad.status, bad.n, bad.line_count, bad.debits, bad.credits, bad.total_amount
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_balanced';
  END IF;
  IF EXISTS (SELECT 1 FROM new_lines n JOIN journal_entries e ON e.entity_id = n.entity_id AND e.id = n.entry_id WHERE n.entry_date <> e.entry_date) THEN
    RAISE EXCEPTION 'journal line dates must equal their entry date' USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_line_entry_date';
  END IF;
  IF EXISTS (
    SELECT 1 FROM (SELECT DISTINCT entity_id, entry_date FROM new_lines) d
      JOIN accounting_periods p ON p.entity_id = d.entity_id AND d.entry_date BETWEEN p.start_date AND p.end_date
     WHERE p.status <> 'open'
  ) THEN
    RAISE EXCEPTION 'journal lines dated in a closed accounting period' USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_line_open_period';
  END IF;
  INSERT INTO gl_daily_balances AS b (entity_id, account_id, balance_date, debit_total, credit_total)
  SELECT entity_id, account_id, entry_date, sum(debit), sum(credit) FROM new_lines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (entity_id, account_id, balance_date)
  DO UPDATE SET debit_total = b.debit_total + EXCLUDED.debit_total, credit_total = b.credit_total + EXCLUDED.credit_total;
  RETURN NULL;
END $$;
CREATE TRIGGER journal_lines_after_insert AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_after_insert();

CREATE FUNCTION journal_lines_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'posted journal lines are immutable; correct them with a reversing entry'
    USING ERRCODE = 'restrict_violation', CONSTRAINT = 'journal_lines_immutable';
END $$;
CREATE TRIGGER journal_lines_immutable BEFORE UPDATE OR DELETE ON journal_lines FOR EACH ROW EXECUTE FUNCTION journal_lines_immutable();
CREATE TRIGGER journal_lines_no_truncate BEFORE TRUNCATE ON journal_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_immutable();

-- A posted entry never changes, except that it is marked reversed (once) when its reversing entry
-- is posted; it is never deleted. Drafts are free to change and go.
CREATE FUNCTION journal_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moving CONSTANT text[] := ARRAY['status', 'reversed_by_id', 'reversed_at', 'updated_at'];
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'draft' THEN
      RAISE EXCEPTION 'posted journal entry % cannot be deleted; reverse it', OLD.id
        USING ERRCODE = 'restrict_violation', CONSTRAINT = 'journal_entries_immutable';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status = 'draft' THEN
    RETURN NEW;
  END IF;
  IF OLD.status = 'posted' AND NEW.status = 'reversed' AND (to_jsonb(NEW) - moving) = (to_jsonb(OLD) - moving) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'posted journal entry % is immutable; correct it with a reversing entry', OLD.id
    USING ERRCODE = 'restrict_violation', CONSTRAINT = 'journal_entries_immutable';
END $$;
CREATE TRIGGER journal_entries_immutable BEFORE UPDATE OR DELETE ON journal_entries FOR EACH ROW EXECUTE FUNCTION journal_entries_immutable();

-- At commit, a posted entry has exactly the lines its header promises (so a header without lines
-- cannot be committed either).
CREATE FUNCTION journal_entries_complete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  debits numeric;
  credits numeric;
BEGIN
  SELECT count(*), coalesce(sum(debit), 0), coalesce(sum(credit), 0) INTO n, debits, credits
    FROM journal_lines WHERE entity_id = NEW.entity_id AND entry_id = NEW.id;
  IF n <> NEW.line_count OR debits <> NEW.total_amount OR credits <> NEW.total_amount THEN
    RAISE EXCEPTION 'posted journal entry % has % lines (debits %, credits %) but its header states % lines totalling %',
      NEW.id, n, debits, credits, NEW.line_count, NEW.total_amount
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_balanced';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER journal_entries_complete AFTER INSERT OR UPDATE OF status ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status <> 'draft') EXECUTE FUNCTION journal_entries_complete();

-- Day balances are derived data: only the journal_lines trigger (nested, so depth 2) writes them.
CREATE FUNCTION gl_daily_balances_derived() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'gl_daily_balances is maintained by journal line postings only'
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gl_daily_balances_derived';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER gl_daily_balances_derived BEFORE INSERT OR UPDATE OR DELETE ON gl_daily_balances FOR EACH ROW EXECUTE FUNCTION gl_daily_balances_derived();

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['gl_accounts', 'accounting_periods', 'journal_entries', 'journal_lines', 'gl_daily_balances', 'recurring_journal_templates'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO app_user USING (entity_id = current_entity_id()) WITH CHECK (entity_id = current_entity_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON gl_accounts, journal_entries, recurring_journal_templates TO app_user;
GRANT SELECT, INSERT, UPDATE ON accounting_periods TO app_user;
-- Lines are append-only: no UPDATE or DELETE for the application at all.
GRANT SELECT, INSERT ON journal_lines TO app_user;
-- Written by the journal_lines trigger, which runs as the posting role.
GRANT SELECT, INSERT, UPDATE ON gl_daily_balances TO app_user;

-- The recurring runner finds which entities have templates due, across entities; the work itself
-- runs as app_user in each entity's scope.
CREATE POLICY worker_recurring_due ON recurring_journal_templates FOR SELECT TO app_worker USING (true);
GRANT SELECT (entity_id, is_active, next_run_date) ON recurring_journal_templates TO app_worker;

-- Down Migration
DROP TABLE recurring_journal_templates, gl_daily_balances, journal_lines, journal_entries, accounting_periods, gl_accounts;
DROP FUNCTION journal_lines_after_insert(), journal_lines_immutable(), journal_entries_immutable(), journal_entries_complete(), gl_daily_balances_derived();
