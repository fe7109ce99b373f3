/**
 * What an app does, by the id a store's `apps` holds: the kinds agencies describe their clients by
 * ("sells subscriptions through an app"). The statistics' app metrics (stats/registry.ts) and the
 * account model's app kinds (accounts/signal-inputs.ts) both read this one list.
 */
export const APP_KINDS = {
  email: { words: 'an email marketing app', apps: ['klaviyo', 'omnisend', 'mailchimp', 'privy'] },
  reviews: { words: 'a reviews app', apps: ['judgeme', 'yotpo', 'loox', 'okendo'] },
  subscriptions: { words: 'a subscriptions app', apps: ['recharge', 'bold-subscriptions', 'appstle'] },
  support: { words: 'a support or chat app', apps: ['gorgias', 'tidio', 'shopify-inbox'] },
} as const satisfies Record<string, { words: string; apps: readonly string[] }>;

export type AppKind = keyof typeof APP_KINDS;

const KIND_OF: ReadonlyMap<string, AppKind> = new Map(
  (Object.keys(APP_KINDS) as AppKind[]).flatMap((kind) => APP_KINDS[kind].apps.map((app) => [app, kind] as const)),
);

/** The kind of an app (undefined for an app of no known kind). */
export const appKind = (app: string): AppKind | undefined => KIND_OF.get(app);
