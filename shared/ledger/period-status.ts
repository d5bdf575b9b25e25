/**
 * The accounting period close workflow, pure:
 *
 *   open ──request close──▶ close_requested ──approve close──▶ closed
 *     ▲                            │                             │
 *     └──────────── reopen (with a reason) ◀─────────────────────┘
 *
 * Only open periods accept postings: a period awaiting approval is frozen so the approver signs
 * off exactly the figures that were reviewed.
 */
export const PERIOD_STATUSES = ['open', 'close_requested', 'closed'] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];

export const PERIOD_ACTIONS = ['request_close', 'approve_close', 'reopen'] as const;
export type PeriodAction = (typeof PERIOD_ACTIONS)[number];

const TRANSITIONS: Record<PeriodAction, { from: readonly PeriodStatus[]; to: PeriodStatus }> = {
  request_close: { from: ['open'], to: 'close_requested' },
  approve_close: { from: ['close_requested'], to: 'closed' },
  reopen: { from: ['close_requested', 'closed'], to: 'open' },
};

/** The status `action` leads to from `status`, or undefined when the move is not allowed. */
export function nextPeriodStatus(status: PeriodStatus, action: PeriodAction): PeriodStatus | undefined {
  const transition = TRANSITIONS[action];
  return transition.from.includes(status) ? transition.to : undefined;
}

export function acceptsPostings(status: PeriodStatus): boolean {
  return status === 'open';
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface PeriodDates {
  period_name: string;
  start_date: string;
  end_date: string;
}

const pad = (value: number) => String(value).padStart(2, '0');
const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The twelve monthly periods of a fiscal year. A fiscal year is named by the calendar year it
 * ends in (the common US convention): fiscal year 2026 starting in April runs from April 2025 to
 * March 2026; starting in January it is calendar 2026.
 */
export function monthlyPeriods(fiscalYear: number, startMonth = 1): PeriodDates[] {
  const firstYear = startMonth === 1 ? fiscalYear : fiscalYear - 1;
  const periods: PeriodDates[] = [];
  for (let index = 0; index < 12; index++) {
    const monthIndex = startMonth - 1 + index;
    const year = firstYear + Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    periods.push({
      period_name: `${MONTH_NAMES[month - 1]} ${year}`,
      start_date: `${year}-${pad(month)}-01`,
      end_date: `${year}-${pad(month)}-${pad(lastDayOfMonth(year, month))}`,
    });
  }
  return periods;
}
