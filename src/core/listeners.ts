/**
 * A list of listeners one module keeps for the others to register with (a recorded outcome, a
 * deal's stage set): each is added once. A listener that acts is told (all in order, each
 * awaited, within the caller's work: its transaction, when it hands one); a listener that
 * answers what should be done (a statement) is asked, and the caller does it.
 */
export interface Listeners<A extends unknown[], R = Promise<void>> {
  /** Adds a listener told from now on (once however often it is added). */
  add(listener: (...args: A) => R): void;
  /** Tells every listener, in the order they were added, awaiting each. */
  tell(...args: A): Promise<void>;
  /** Every listener's answer, in the order they were added. */
  ask(...args: A): R[];
}

export function listeners<A extends unknown[], R = Promise<void>>(): Listeners<A, R> {
  const list: ((...args: A) => R)[] = [];
  return {
    add: (listener) => {
      if (!list.includes(listener)) list.push(listener);
    },
    tell: async (...args) => {
      for (const l of list) await l(...args);
    },
    ask: (...args) => list.map((l) => l(...args)),
  };
}
