import { listJournalEntries } from '../../shared/ledger/journal-entries';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { JOURNAL_ENTRY_STATUSES, JournalEntry } from '../../shared/ledger/schemas/journal-entry';
import { journalEntryExpand } from './expand';

export const route = defineRoute({
  id: 'journal_entries.list',
  method: 'GET',
  path: '/v1/journal-entries',
  tag: 'General ledger',
  summary: 'List journal entries',
  description: 'Newest first (by creation). Lines are embedded; expand[]=data.lines.account adds each line’s account.',
  scopes: ['accounting:read'],
  query: listQuery({
    status: param.oneOf(JOURNAL_ENTRY_STATUSES),
    entry_date_gte: param.date('Only entries dated on or after this date.'),
    entry_date_lte: param.date('Only entries dated on or before this date.'),
    source_type: param.text({ max: 64 }, 'Only entries from this source (manual, recurring_journal_template, invoice, ...).'),
    source_id: param.id('Only entries of this source document or template (a document’s posting and its reversal).'),
    account_id: param.id('Only entries with a line on this GL account.'),
  }),
  response: listEnvelope(JournalEntry),
  list: true,
  expand: journalEntryExpand,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listJournalEntries(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
