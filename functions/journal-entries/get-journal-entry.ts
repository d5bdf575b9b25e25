import { getJournalEntry } from '../../shared/ledger/journal-entries';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { JournalEntry } from '../../shared/ledger/schemas/journal-entry';
import { journalEntryExpand } from './expand';

export const route = defineRoute({
  id: 'journal_entries.get',
  method: 'GET',
  path: '/v1/journal-entries/{id}',
  tag: 'General ledger',
  summary: 'Retrieve a journal entry',
  description: 'Lines are embedded; expand[]=lines.account adds each line’s account.',
  scopes: ['accounting:read'],
  params: idParams,
  response: JournalEntry,
  expand: journalEntryExpand,
  handler: (ctx, { params }) => getJournalEntry(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
