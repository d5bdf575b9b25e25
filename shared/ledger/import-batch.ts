/**
 * The ledger's part in rolling back an import batch (shared/migration/batch-rollback.ts): the
 * journal entries that keep an imported order. A reference query selects (target, by_id) for the
 * entity $1 and the target ids $2.
 */
export const LEDGER_REFERENCES = {
  /** Journal entries posted for the source. */
  entriesOfSources: 'SELECT source_id AS target, id AS by_id FROM journal_entries WHERE entity_id = $1 AND source_id = ANY($2)',
} as const;
