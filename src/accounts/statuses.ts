/**
 * An operator's decision about an account (set_account_status). `do_not_contact` and
 * `disqualified` block outreach.
 */
export const ACCOUNT_STATUSES = ['open', 'working', 'qualified', 'disqualified', 'customer', 'do_not_contact'] as const;

export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];


/** Statuses under which no outreach starts and no further step is sent. */
export const NO_OUTREACH: ReadonlySet<string> = new Set<AccountStatus>(['do_not_contact', 'disqualified']);
