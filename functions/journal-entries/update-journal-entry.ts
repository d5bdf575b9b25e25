import { getJournalEntry, updateDraftJournalEntry } from '../../shared/ledger/journal-entries';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { JournalEntry, JournalEntryUpdate } from '../../shared/ledger/schemas/journal-entry';
import { journalEntryExpand } from './expand';

export const route = defineRoute({
  id: 'journal_entries.update',
  method: 'PATCH',
  path: '/v1/journal-entries/{id}',
  tag: 'General ledger',
  summary: 'Update a draft journal entry',
  description:
    'Drafts only (409 journal_entry_not_draft with current_status otherwise): posted entries are immutable and corrected by reversal. lines replaces every line.',
  scopes: ['accounting:write'],
  params: idParams,
  body: JournalEntryUpdate,
  response: JournalEntry,
  expand: journalEntryExpand,
  errors: ['journal_entry_not_draft', 'gl_account_inactive', 'gl_account_control'],
  current: (ctx, { params }) => getJournalEntry(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { entry, previous } = await updateDraftJournalEntry(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('journal_entry.updated', entry, previous);
    return entry;
  },
});

export const handler = lambdaHandler(route, idempotency);
