import { deleteDraftJournalEntry, getJournalEntry } from '../../shared/ledger/journal-entries';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'journal_entries.delete',
  method: 'DELETE',
  path: '/v1/journal-entries/{id}',
  tag: 'General ledger',
  summary: 'Delete a draft journal entry',
  description: 'Drafts only (409 journal_entry_not_draft with current_status otherwise); a posted entry is reversed, never deleted.',
  scopes: ['accounting:write'],
  params: idParams,
  response: deletedObject('journal_entry'),
  errors: ['journal_entry_not_draft'],
  current: (ctx, { params }) => getJournalEntry(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const entry = await deleteDraftJournalEntry(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('journal_entry.deleted', entry);
    return { id: entry.id, object: 'journal_entry' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
