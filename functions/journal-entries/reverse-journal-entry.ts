import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { reverseJournalEntry } from '../../shared/ledger/post-journal-entry';
import { idParams } from '../../shared/schemas/parameters';
import { JournalEntry, JournalEntryReverse } from '../../shared/ledger/schemas/journal-entry';
import { journalEntryExpand } from './expand';

export const route = defineRoute({
  id: 'journal_entries.reverse',
  method: 'POST',
  path: '/v1/journal-entries/{id}/reverse',
  tag: 'General ledger',
  summary: 'Reverse a posted journal entry',
  description:
    "Posts the mirror image of the entry (debits and credits swapped, same source, reversal_of_id set) and marks the original reversed (reversed_by_id). Returns the reversing entry. reversal_date defaults to the original's date, so the correction lands in the same period; a closed period is 422 period_closed (pass a later reversal_date). Only a posted entry that is not itself a reversal can be reversed, once (409 journal_entry_not_reversible).",
  scopes: ['accounting:write'],
  params: idParams,
  body: JournalEntryReverse,
  response: JournalEntry,
  successStatus: 201,
  expand: journalEntryExpand,
  errors: ['journal_entry_not_reversible', 'period_closed'],
  handler: async (ctx, { params, body }) => (await reverseJournalEntry(ctx.db, ctx, params.id, body)).reversal,
});

export const handler = lambdaHandler(route, idempotency);
