import { createDraftJournalEntry, MANUAL_SOURCE } from '../../shared/ledger/journal-entries';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { postJournalEntry } from '../../shared/ledger/post-journal-entry';
import { JournalEntry, JournalEntryCreate } from '../../shared/ledger/schemas/journal-entry';
import { journalEntryExpand } from './expand';

export const route = defineRoute({
  id: 'journal_entries.create',
  method: 'POST',
  path: '/v1/journal-entries',
  tag: 'General ledger',
  summary: 'Create a manual journal entry',
  description:
    'Saves a draft (editable, may be unbalanced), or posts at once with post: true. Posting needs debits equal to credits to the cent (422 journal_entry_unbalanced), active accounts of the entity, and an entry date outside closed periods (422 period_closed naming the period); dates no period covers are accepted. Accounts receivable and payable are control accounts their documents post to; manual entries cannot use them (422 gl_account_control).',
  scopes: ['accounting:write'],
  body: JournalEntryCreate,
  response: JournalEntry,
  successStatus: 201,
  expand: journalEntryExpand,
  errors: ['journal_entry_unbalanced', 'gl_account_inactive', 'gl_account_control', 'period_closed'],
  handler: async (ctx, { body }) => {
    const { post, ...entry } = body;
    if (post) return postJournalEntry(ctx.db, ctx, { ...entry, source_type: MANUAL_SOURCE }, { allowControlAccounts: false });
    const draft = await createDraftJournalEntry(ctx.db, ctx, entry);
    await ctx.events.record('journal_entry.created', draft);
    return draft;
  },
});

export const handler = lambdaHandler(route, idempotency);
