import { glAccountsByIds } from '../../shared/ledger/gl-accounts';
import { expandById, type ExpandSpec } from '../../shared/http/expand';

/** What a journal entry can expand: each line's account (one query for every line of the page). */
export const journalEntryExpand: ExpandSpec = {
  'lines.account': expandById('account_id', 'account', glAccountsByIds),
};
