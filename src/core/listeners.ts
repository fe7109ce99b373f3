/**
 * A list of listeners one module keeps for the others to register with (a recorded outcome, a
 * deal's stage set): each is added once, and all are told in order, each awaited, within the
 * caller's work (its transaction, when it hands one).
 */
export interface Listeners<A extends unknown[]> {
  /** Adds a listener told from now on (once however often it is added). */
  add(listener: (...args: A) => Promise<void>): void;
  /** Tells every listener, in the order they were added. */
  tell(...args: A): Promise<void>;
}

export function listeners<A extends unknown[]>(): Listeners<A> {
  const list: ((...args: A) => Promise<void>)[] = [];
  return {
    add: (listener) => {
      if (!list.includes(listener)) list.push(listener);
    },
    tell: async (...args) => {
      for (const l of list) await l(...args);
    },
  };
}
