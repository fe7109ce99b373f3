/**
 * The time of a change to something already changed at `previous` (ISO): `now`, or a millisecond
 * after `previous` when that is not earlier. Called under the lock or version check that orders
 * the changes, it dates them in the order they commit (a request that started first but waited
 * is dated after the one it waited for), so times never go back.
 */
export function datedAfter(now: Date, previous: string | null | undefined): Date {
  const last = previous ? Date.parse(previous) : -Infinity;
  return last >= now.getTime() ? new Date(last + 1) : now;
}
