/** The publication floor: a figure from fewer stores than this is suppressed (SPEC "Limits"). */
export const FLOOR = 30;
