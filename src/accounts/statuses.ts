/**
 * An operator's decision about an account (set_account_status). `do_not_contact` and
 * `disqualified` block outreach.
 */
export const ACCOUNT_STATUSES = ['open', 'working', 'qualified', 'disqualified', 'customer', 'do_not_contact'] as const;

export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

