import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { postDraftJournalEntry } from '../../shared/ledger/post-journal-entry';
import { idParams } from '../../shared/schemas/parameters';
import { JournalEntry } from '../../shared/ledger/schemas/journal-entry';
import { journalEntryExpand } from './expand';

export const route = defineRoute({
  id: 'journal_entries.post',
  method: 'POST',
  path: '/v1/journal-entries/{id}/post',
  tag: 'General ledger',
  summary: 'Post a draft journal entry',
  description:
    'Posts the draft as it stands: it gets its entry number and becomes immutable. Refused, writing nothing, when it does not balance (422 journal_entry_unbalanced with total_debits and total_credits), an account is inactive, or its date is in a closed period (422 period_closed with the period).',
  scopes: ['accounting:write'],
  params: idParams,
  response: JournalEntry,
  expand: journalEntryExpand,
  errors: ['journal_entry_not_draft', 'journal_entry_unbalanced', 'gl_account_inactive', 'gl_account_control', 'period_closed'],
  handler: (ctx, { params }) => postDraftJournalEntry(ctx.db, ctx, params.id),
});

export const handler = lambdaHandler(route, idempotency);
