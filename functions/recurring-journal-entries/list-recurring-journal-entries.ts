import { param, queryParams } from '../../shared/schemas/parameters';
import { listTemplatesPage } from '../../shared/ledger/recurring-journal-templates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { RECURRING_PAGE_SIZE_DEFAULT, RECURRING_PAGE_WINDOW, RecurringTemplatePage } from '../../shared/ledger/schemas/recurring-journal-entry';

export const route = defineRoute({
  id: 'recurring_journal_entries.list',
  method: 'GET',
  path: '/v1/recurring-journal-entries',
  tag: 'General ledger',
  summary: 'List recurring journal entry templates (E27)',
  description: `Page-number paging, as E27 states: page (from 1) and page_size (1 to 100), newest first; has_more says whether a next page exists. page x page_size may not exceed ${RECURRING_PAGE_WINDOW}.`,
  scopes: ['accounting:read'],
  query: queryParams({
    page: param.int({ min: 1, max: Number.MAX_SAFE_INTEGER }, 'Page number, from 1.', { default: 1 }),
    page_size: param.int({ min: 1, max: 100 }, 'Templates per page, 1 to 100 (default 25).', { default: RECURRING_PAGE_SIZE_DEFAULT }),
    is_active: param.flag('Only active (true) or inactive (false) templates.'),
  }),
  response: RecurringTemplatePage,
  handler: (ctx, { query }) => listTemplatesPage(ctx.db, ctx.entityId, { is_active: query.is_active }, query),
});

export const handler = lambdaHandler(route);
