/**
 * Runs the recurring journal entry runner once, as the daily schedule does on AWS:
 *
 *   npm run recurring -- [--as-of 2026-12-01]     (default: today, UTC)
 *
 * It talks to DATABASE_URL, or to the embedded database of a running `npm start`, or opens the
 * embedded database itself when the server is stopped (as the CLI does). Prints what it posted.
 */
import './local-environment';
import { runRecurringTemplates } from '../shared/ledger/run-recurring';
import { parseCommandLine } from './command-line';
import { connectForCommand } from './connect';
import { todayUtc } from '../shared/dates';

const USAGE = `usage: npm run recurring -- [--as-of YYYY-MM-DD]
  Posts the recurring journal entries due as of the date (default: today, UTC) and prints what it posted.`;

async function main() {
  const { values } = parseCommandLine(USAGE, { options: ['as-of'] });
  const asOfDate = values['as-of'] ?? todayUtc();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOfDate) || Number.isNaN(Date.parse(asOfDate))) {
    console.error(`--as-of takes a date, YYYY-MM-DD\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const close = await connectForCommand();
  try {
    const result = await runRecurringTemplates(asOfDate);
    console.log(JSON.stringify(result, null, 2));
    if (result.failures.length) process.exitCode = 1;
  } finally {
    await close();
  }
}

void main();
