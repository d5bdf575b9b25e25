/**
 * Route table entries: GL accounts, journal entries (one-off and recurring), accounting periods,
 * the cash balance and trial balance, and the financial reports: balance sheet, profit and loss and
 * account activity (shared/ledger). Keys are the handler modules'
 * paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as createGlAccount from '../gl-accounts/create-gl-account';
import * as deleteGlAccount from '../gl-accounts/delete-gl-account';
import * as getGlAccount from '../gl-accounts/get-gl-account';
import * as listGlAccounts from '../gl-accounts/list-gl-accounts';
import * as updateGlAccount from '../gl-accounts/update-gl-account';
import * as createJournalEntry from '../journal-entries/create-journal-entry';
import * as deleteJournalEntry from '../journal-entries/delete-journal-entry';
import * as getJournalEntry from '../journal-entries/get-journal-entry';
import * as listJournalEntries from '../journal-entries/list-journal-entries';
import * as postJournalEntry from '../journal-entries/post-journal-entry';
import * as reverseJournalEntry from '../journal-entries/reverse-journal-entry';
import * as updateJournalEntry from '../journal-entries/update-journal-entry';
import * as approvePeriodClose from '../periods/approve-period-close';
import * as createFiscalYear from '../periods/create-fiscal-year';
import * as createPeriod from '../periods/create-period';
import * as getPeriod from '../periods/get-period';
import * as listPeriods from '../periods/list-periods';
import * as reopenPeriod from '../periods/reopen-period';
import * as requestPeriodClose from '../periods/request-period-close';
import * as getCashBalance from '../reconciliation/get-cash-balance';
import * as getTrialBalance from '../reconciliation/get-trial-balance';
import * as getAccountActivity from '../reports/get-account-activity';
import * as getBalanceSheet from '../reports/get-balance-sheet';
import * as getProfitAndLoss from '../reports/get-profit-and-loss';
import * as createRecurringJournalEntry from '../recurring-journal-entries/create-recurring-journal-entry';
import * as deleteRecurringJournalEntry from '../recurring-journal-entries/delete-recurring-journal-entry';
import * as getRecurringJournalEntry from '../recurring-journal-entries/get-recurring-journal-entry';
import * as listRecurringJournalEntries from '../recurring-journal-entries/list-recurring-journal-entries';
import * as updateRecurringJournalEntry from '../recurring-journal-entries/update-recurring-journal-entry';

export const LEDGER_ROUTES = {
  'gl-accounts/create-gl-account': createGlAccount,
  'gl-accounts/delete-gl-account': deleteGlAccount,
  'gl-accounts/get-gl-account': getGlAccount,
  'gl-accounts/list-gl-accounts': listGlAccounts,
  'gl-accounts/update-gl-account': updateGlAccount,
  'journal-entries/create-journal-entry': createJournalEntry,
  'journal-entries/delete-journal-entry': deleteJournalEntry,
  'journal-entries/get-journal-entry': getJournalEntry,
  'journal-entries/list-journal-entries': listJournalEntries,
  'journal-entries/post-journal-entry': postJournalEntry,
  'journal-entries/reverse-journal-entry': reverseJournalEntry,
  'journal-entries/update-journal-entry': updateJournalEntry,
  'periods/approve-period-close': approvePeriodClose,
  'periods/create-fiscal-year': createFiscalYear,
  'periods/create-period': createPeriod,
  'periods/get-period': getPeriod,
  'periods/list-periods': listPeriods,
  'periods/reopen-period': reopenPeriod,
  'periods/request-period-close': requestPeriodClose,
  'reconciliation/get-cash-balance': getCashBalance,
  'reconciliation/get-trial-balance': getTrialBalance,
  'reports/get-account-activity': getAccountActivity,
  'reports/get-balance-sheet': getBalanceSheet,
  'reports/get-profit-and-loss': getProfitAndLoss,
  'recurring-journal-entries/create-recurring-journal-entry': createRecurringJournalEntry,
  'recurring-journal-entries/delete-recurring-journal-entry': deleteRecurringJournalEntry,
  'recurring-journal-entries/get-recurring-journal-entry': getRecurringJournalEntry,
  'recurring-journal-entries/list-recurring-journal-entries': listRecurringJournalEntries,
  'recurring-journal-entries/update-recurring-journal-entry': updateRecurringJournalEntry,
} satisfies Record<string, RouteModule>;
