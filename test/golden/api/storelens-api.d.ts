export interface paths {
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scored accounts
         * @description The workspace's in-market accounts in ranking order (score descending, then store_id); `filter=all` widens the list to every scored account (search). `min_score`, `country`, `category`, `plan`, `status`, `signal_type` and `signals_since` narrow either list and combine; a cursor only continues the walk with the filters it was issued for (other filters ⇒ 400). Accounts with status `disqualified`, `do_not_contact` or `customer` are never in-market but stay listed with `filter=all`. Every returned row is marked delivered to the agent in the same transaction that serves the page.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_accounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{store_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one account's detail
         * @description The account row (score, evidence, status, recent signals) plus the store's latest features, the status history (newest first), a summary of its signal history, and its deals and contacts (both always empty until the deal and contact operations are available). A store the workspace cannot see (outside its profile, or unknown) ⇒ 404. Reading the detail delivers the row to the agent: `delivered_to_agent` becomes true, as for the rows of list_accounts.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_account"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{store_id}/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one account's signal history
         * @description Every signal of the store across all ingested months, newest month first (then by id), paged. A store the workspace cannot see ⇒ 404.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_account_signals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{store_id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set an account's status (operator decision)
         * @description Records an operator decision: `open`, `working`, `qualified`, `disqualified`, `customer` or `do_not_contact` (anything else ⇒ 400), with an optional note. It becomes the account's `status` (a list_accounts filter) and is appended to its status history with the key as actor. `disqualified`, `do_not_contact` and `customer` accounts are never in-market; they stay listed with `filter=all`. A store the workspace cannot see ⇒ 404. Idempotency-Key: the same key and body replay the answer, the same key with another body ⇒ 409.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["set_account_status"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/current-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the published current list
         * @description Unavailable in the wallet-live state.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["get_current_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the workspace's target profile
         * @description The countries, categories, plans and size bounds (visits, revenue, products) a store must match to be one of the workspace's accounts; a store with an unknown value never passes a bound on it. `profile: null` means the workspace sees every store. An owner or admin sets it with `storelens workspaces profile`.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_profile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outcomes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record an outcome
         * @description Records an outreach outcome for a store; it becomes a learning label that improves the workspace ranking. Success is 200 with the recorded outcome.
         *
         *     Scope: `write:outcomes`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["record_outcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deals
         * @description Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["list_deals"];
        put?: never;
        /**
         * Create a deal
         * @description Emits `deal.created`.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["create_deal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a deal
         * @description Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["get_deal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a deal
         * @description Emits `deal.updated`. A stale If-Match version ⇒ 409.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        patch: operations["update_deal"];
        trace?: never;
    };
    "/deals/{id}/stage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a deal to another stage
         * @description Emits only `deal.stage_changed`. A stale If-Match version ⇒ 409.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["move_deal_stage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a note to a deal
         * @description Emits no event.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["add_deal_note"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find existing contacts
         * @description Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["find_contacts"];
        put?: never;
        /**
         * Add a contact
         * @description Emits `contact.created`.
         *
         *     Scope: `write:contacts`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["add_contact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a contact
         * @description Scope: `write:contacts`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        patch: operations["update_contact"];
        trace?: never;
    };
    "/contacts/discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discover new contacts for a store
         * @description Suggests contacts not yet saved; emits no event.
         *
         *     Scope: `write:contacts`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["discover_contacts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watch/managed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read managed-watch state
         * @description Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["get_managed_watch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List self-directed and client watches with their health
         * @description Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["list_watches"];
        put?: never;
        /**
         * Add a self-directed or client watch
         * @description Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["add_watch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a self-directed or client watch
         * @description Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        delete: operations["remove_watch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read wallet balance, usage and pricing
         * @description Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["get_wallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/supervision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read supervision data: approvals and standing rules
         * @description Supervision reads use scope read:wallet (approvals and standing rules are supervision data).
         *
         *     Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["get_supervision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/growth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request a growth report for a store
         * @description Scope: `generate:reports`. Call kind: report (5 per minute per key). Availability: unavailable.
         */
        post: operations["request_growth_report"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/growth/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a requested growth report
         * @description Scope: `generate:reports`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["get_growth_report"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outreach/enrollments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enroll a store in an outreach cadence
         * @description Scope: `write:outreach`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["enroll_outreach"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outreach/enrollments/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a store in an outreach cadence
         * @description Scope: `write:outreach`. Call kind: write (20 per minute per key). Availability: unavailable.
         */
        post: operations["stop_outreach"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List event-notification endpoints
         * @description Oldest first. Secrets are never shown.
         *
         *     Scope: `manage:webhooks`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_webhooks"];
        put?: never;
        /**
         * Register an event-notification endpoint
         * @description Registers an https URL whose host resolves to public addresses only. Leaving out `event_types` delivers every event type. The signing secret is returned once, in this response; a replay with the same Idempotency-Key returns the endpoint with `secret: null` and says why. Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). A URL the SSRF guard refuses ⇒ 422.
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["register_webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an event-notification endpoint
         * @description The secret is never shown. An unknown id or another workspace's endpoint ⇒ 404.
         *
         *     Scope: `manage:webhooks`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_webhook"];
        put?: never;
        post?: never;
        /**
         * Delete an event-notification endpoint
         * @description 200 with `{id, deleted: true}`; nothing more is sent to it. An unknown id or another workspace's endpoint ⇒ 404; a replay with the same Idempotency-Key ⇒ the same 200.
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        delete: operations["delete_webhook"];
        options?: never;
        head?: never;
        /**
         * Change an event-notification endpoint
         * @description Changes the URL (checked like at registration), the event types (null: every type), the description, or enables/disables the endpoint. Enabling clears the reason it was disabled; events that happened while it was disabled are not sent (use recover).
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        patch: operations["update_webhook"];
        trace?: never;
    };
    "/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret
         * @description Returns the new secret once. For 24 hours every delivery carries two signatures (new and previous secret), so the receiver can switch without losing a message. A replay with the same Idempotency-Key returns the endpoint with `secret: null`.
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["rotate_webhook_secret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An endpoint's delivery log
         * @description Newest first: each message with its event, every attempt (status code, duration, error, next retry) and its state. Kept 30 days.
         *
         *     Scope: `manage:webhooks`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_webhook_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again now
         * @description Schedules the message again at once, with the same `webhook-id` and a fresh retry schedule (delivered, failed or pending alike).
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["retry_webhook_delivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send every event of a time window again
         * @description After a receiver outage: every event of the endpoint's types that happened in [since, until] is sent again (a message that exists keeps its webhook-id). Events are kept 30 days: an older `since` ⇒ 422.
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["recover_webhook_events"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test event
         * @description Sends a `webhook.test` event to the endpoint, signed like every delivery; it appears in the delivery log.
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["test_webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 7807 problem details (application/problem+json) */
        Problem: {
            /** @description Stable URI of the problem kind */
            type: string;
            title: string;
            status: number;
            detail: string;
        };
    };
    responses: {
        /** @description Invalid parameters, body, cursor, or missing/unusable Idempotency-Key */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Missing or invalid API key (carries `WWW-Authenticate: Bearer`) */
        Unauthorized: {
            headers: {
                /** @description `Bearer realm="storelens"` */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The key lacks the scope the call needs */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Not visible to this workspace, or the operation is unavailable (also pilot-required, activation-required) */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Idempotency-Key reused with different input, a request with it still in progress, or conflicting state */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Request body over the 64 KiB limit */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Request body not application/json in UTF-8, or sent with a Content-Encoding */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Valid JSON, but the request cannot be completed with the supplied resource */
        Unprocessable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Rate limit exceeded; wait the seconds given in `Retry-After` */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Authorization, policy or source data temporarily unavailable */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Remaining quota and seconds to reset, e.g. `"read";r=119;t=42` */
        RateLimit: string;
        /** @description Quota policy, e.g. `"read";q=120;w=60` */
        RateLimitPolicy: string;
        /** @description Seconds to wait before retrying */
        RetryAfter: number;
        /** @description `true` when the response is a replay of a stored result */
        IdempotentReplayed: "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    list_accounts: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                /** @description `in_market` (default) or `all` scored accounts */
                filter?: "in_market" | "all";
                /** @description Only accounts scoring at least this */
                min_score?: number;
                /** @description Only accounts of this country */
                country?: string;
                /** @description Only accounts of this category (exact; categories may contain commas) */
                category?: string;
                /** @description Only accounts on this plan */
                plan?: string;
                /** @description Only accounts with this status */
                status?: "open" | "working" | "qualified" | "disqualified" | "customer" | "do_not_contact";
                /** @description Only accounts with a signal of this type (in any ingested month, or since `signals_since`) */
                signal_type?: "store_opened" | "store_closed" | "ad_channel_started" | "ad_channel_stopped" | "app_installed" | "app_removed" | "agentic_feature_adopted" | "agentic_feature_dropped" | "traffic_up" | "traffic_down" | "catalogue_growth" | "revenue_jump" | "plan_upgraded" | "plan_downgraded";
                /** @description Only accounts with a signal (of `signal_type` when given) in this month or later */
                signals_since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "account";
                            store_id: string;
                            domain: string | null;
                            country: string | null;
                            category: string | null;
                            plan: string | null;
                            /** @description Ranking score (the probability the model gives the account); higher ranks first */
                            score: number;
                            /** @description log(score / (1 − score)): the sum of the evidence contributions */
                            logit: number;
                            /** @description The workspace model version that scored the row; it moves when outcomes refit the model */
                            model_version: number;
                            /** @description In the in-market list: score above the threshold with a signal in the last two months (or an exploration pick) */
                            in_market: boolean;
                            /** @description In the in-market list as exploration (to learn from outcomes), not for its score alone */
                            explore: boolean;
                            /**
                             * @description The latest operator status (set_account_status); `open` until one is set
                             * @enum {string}
                             */
                            status: "open" | "working" | "qualified" | "disqualified" | "customer" | "do_not_contact";
                            /** @description Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing */
                            selected_for_first_party_surface: boolean;
                            /** @description Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human */
                            delivered_to_agent: boolean;
                            /** @description The recent signals the score weighs, newest first */
                            signals: {
                                id: string;
                                /** @enum {string} */
                                type: "store_opened" | "store_closed" | "ad_channel_started" | "ad_channel_stopped" | "app_installed" | "app_removed" | "agentic_feature_adopted" | "agentic_feature_dropped" | "traffic_up" | "traffic_down" | "catalogue_growth" | "revenue_jump" | "plan_upgraded" | "plan_downgraded";
                                /** @description YYYY-MM */
                                month: string;
                                /** @description The network, app, feature or new plan the signal is about, when it is about one */
                                subject: string | null;
                                /** @description Plain words, e.g. "Started advertising on TikTok" */
                                detail: string;
                                /** @description In (0, 1] */
                                strength: number;
                            }[];
                            /** @description The features and signals that moved the score, with their contributions */
                            evidence: {
                                /**
                                 * @description `intercept` (the model's base rate), a `feature` of the store, or a recent `signal`
                                 * @enum {string}
                                 */
                                kind: "intercept" | "feature" | "signal";
                                /** @description What moved the score, e.g. `country:US`, `ads:tiktok`, `signal:app_installed` */
                                key: string;
                                /** @description The same in plain words */
                                detail: string;
                                /** @description Its contribution to the score's logit; all contributions of a row add up to `logit` */
                                contribution: number;
                                /** @description For a signal: the month it happened */
                                month?: string;
                            }[];
                            updated_at: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_account: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Store identifier of the account */
                store_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "account";
                        store_id: string;
                        domain: string | null;
                        country: string | null;
                        category: string | null;
                        plan: string | null;
                        /** @description Ranking score (the probability the model gives the account); higher ranks first */
                        score: number;
                        /** @description log(score / (1 − score)): the sum of the evidence contributions */
                        logit: number;
                        /** @description The workspace model version that scored the row; it moves when outcomes refit the model */
                        model_version: number;
                        /** @description In the in-market list: score above the threshold with a signal in the last two months (or an exploration pick) */
                        in_market: boolean;
                        /** @description In the in-market list as exploration (to learn from outcomes), not for its score alone */
                        explore: boolean;
                        /**
                         * @description The latest operator status (set_account_status); `open` until one is set
                         * @enum {string}
                         */
                        status: "open" | "working" | "qualified" | "disqualified" | "customer" | "do_not_contact";
                        /** @description Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing */
                        selected_for_first_party_surface: boolean;
                        /** @description Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human */
                        delivered_to_agent: boolean;
                        /** @description The recent signals the score weighs, newest first */
                        signals: {
                            id: string;
                            /** @enum {string} */
                            type: "store_opened" | "store_closed" | "ad_channel_started" | "ad_channel_stopped" | "app_installed" | "app_removed" | "agentic_feature_adopted" | "agentic_feature_dropped" | "traffic_up" | "traffic_down" | "catalogue_growth" | "revenue_jump" | "plan_upgraded" | "plan_downgraded";
                            /** @description YYYY-MM */
                            month: string;
                            /** @description The network, app, feature or new plan the signal is about, when it is about one */
                            subject: string | null;
                            /** @description Plain words, e.g. "Started advertising on TikTok" */
                            detail: string;
                            /** @description In (0, 1] */
                            strength: number;
                        }[];
                        /** @description The features and signals that moved the score, with their contributions */
                        evidence: {
                            /**
                             * @description `intercept` (the model's base rate), a `feature` of the store, or a recent `signal`
                             * @enum {string}
                             */
                            kind: "intercept" | "feature" | "signal";
                            /** @description What moved the score, e.g. `country:US`, `ads:tiktok`, `signal:app_installed` */
                            key: string;
                            /** @description The same in plain words */
                            detail: string;
                            /** @description Its contribution to the score's logit; all contributions of a row add up to `logit` */
                            contribution: number;
                            /** @description For a signal: the month it happened */
                            month?: string;
                        }[];
                        updated_at: string;
                        /** @description The store's features in the latest ingested month it is present in (null when the panel has none) */
                        features: {
                            /** @description The latest ingested month the store is present in */
                            month: string;
                            domain: string | null;
                            country: string | null;
                            category: string | null;
                            plan: string | null;
                            created_month: string | null;
                            product_count: number | null;
                            monthly_visits: number | null;
                            est_monthly_revenue_usd: number | null;
                            /** @description Installed app ids */
                            apps: string[];
                            /** @description Ad networks whose pixel was seen: meta, google, tiktok, pinterest */
                            ads: string[];
                            /** @description Agentic-commerce features present: llms_txt, product_schema, agent_checkout, mcp_server, ai_crawlers_allowed */
                            agentic: string[];
                        } | null;
                        /** @description Status changes, newest first */
                        status_history: {
                            /** @enum {string} */
                            status: "open" | "working" | "qualified" | "disqualified" | "customer" | "do_not_contact";
                            note: string | null;
                            /** @description `key:<key id>` for a change made through the API */
                            actor: string;
                            created_at: string;
                        }[];
                        signal_summary: {
                            total: number;
                            /** @description Signal count by type */
                            by_type: {
                                [key: string]: number;
                            };
                            first_month: string | null;
                            last_month: string | null;
                        };
                        /** @description The account's deals: always empty until the deal operations are available */
                        deals: {
                            [key: string]: unknown;
                        }[];
                        /** @description The account's contacts: always empty until the contact operations are available */
                        contacts: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_account_signals: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Store identifier of the account */
                store_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "signal";
                            /** @description Stable across re-ingests of the same month */
                            id: string;
                            store_id: string;
                            /** @enum {string} */
                            type: "store_opened" | "store_closed" | "ad_channel_started" | "ad_channel_stopped" | "app_installed" | "app_removed" | "agentic_feature_adopted" | "agentic_feature_dropped" | "traffic_up" | "traffic_down" | "catalogue_growth" | "revenue_jump" | "plan_upgraded" | "plan_downgraded";
                            /** @description YYYY-MM */
                            month: string;
                            /** @description The network, app, feature or new plan the signal is about, when it is about one */
                            subject: string | null;
                            /** @description In (0, 1]: how strong the change was */
                            strength: number;
                            /** @description Plain words */
                            detail: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    set_account_status: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Store identifier of the account */
                store_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "open" | "working" | "qualified" | "disqualified" | "customer" | "do_not_contact";
                    /** @description Why (free text) */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "account_status";
                        store_id: string;
                        /** @enum {string} */
                        status: "open" | "working" | "qualified" | "disqualified" | "customer" | "do_not_contact";
                        note: string | null;
                        updated_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_current_list: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "account";
                            store_id: string;
                            domain: string | null;
                            country: string | null;
                            category: string | null;
                            plan: string | null;
                            /** @description Ranking score (the probability the model gives the account); higher ranks first */
                            score: number;
                            /** @description log(score / (1 − score)): the sum of the evidence contributions */
                            logit: number;
                            /** @description The workspace model version that scored the row; it moves when outcomes refit the model */
                            model_version: number;
                            /** @description In the in-market list: score above the threshold with a signal in the last two months (or an exploration pick) */
                            in_market: boolean;
                            /** @description In the in-market list as exploration (to learn from outcomes), not for its score alone */
                            explore: boolean;
                            /**
                             * @description The latest operator status (set_account_status); `open` until one is set
                             * @enum {string}
                             */
                            status: "open" | "working" | "qualified" | "disqualified" | "customer" | "do_not_contact";
                            /** @description Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing */
                            selected_for_first_party_surface: boolean;
                            /** @description Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human */
                            delivered_to_agent: boolean;
                            /** @description The recent signals the score weighs, newest first */
                            signals: {
                                id: string;
                                /** @enum {string} */
                                type: "store_opened" | "store_closed" | "ad_channel_started" | "ad_channel_stopped" | "app_installed" | "app_removed" | "agentic_feature_adopted" | "agentic_feature_dropped" | "traffic_up" | "traffic_down" | "catalogue_growth" | "revenue_jump" | "plan_upgraded" | "plan_downgraded";
                                /** @description YYYY-MM */
                                month: string;
                                /** @description The network, app, feature or new plan the signal is about, when it is about one */
                                subject: string | null;
                                /** @description Plain words, e.g. "Started advertising on TikTok" */
                                detail: string;
                                /** @description In (0, 1] */
                                strength: number;
                            }[];
                            /** @description The features and signals that moved the score, with their contributions */
                            evidence: {
                                /**
                                 * @description `intercept` (the model's base rate), a `feature` of the store, or a recent `signal`
                                 * @enum {string}
                                 */
                                kind: "intercept" | "feature" | "signal";
                                /** @description What moved the score, e.g. `country:US`, `ads:tiktok`, `signal:app_installed` */
                                key: string;
                                /** @description The same in plain words */
                                detail: string;
                                /** @description Its contribution to the score's logit; all contributions of a row add up to `logit` */
                                contribution: number;
                                /** @description For a signal: the month it happened */
                                month?: string;
                            }[];
                            updated_at: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_profile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "profile";
                        workspace_id: string;
                        profile: {
                            /** @description ISO 3166-1 alpha-2 codes; stores of other (or unknown) countries are not visible */
                            countries?: string[];
                            /** @description Panel categories, compared exactly */
                            categories?: string[];
                            plans?: string[];
                            min_visits?: number;
                            max_visits?: number;
                            min_revenue_usd?: number;
                            max_revenue_usd?: number;
                            min_products?: number;
                            max_products?: number;
                        } | null;
                        /** @description When the profile was last set or cleared; null when it never was */
                        updated_at: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    record_outcome: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Any string; an unknown store is accepted and becomes a label once it matches a visible account */
                    store_id: string;
                    /** @enum {string} */
                    action: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                    /** @description Deal value, meant for action `won` */
                    value?: number;
                    /** @description Any string */
                    occurred_at?: string;
                    note?: string;
                    /**
                     * @description Required when action is `lost`
                     * @enum {string}
                     */
                    lost_reason?: "no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other";
                    /** @description Required when lost_reason is `other` */
                    lost_reason_other?: string;
                } & (unknown & unknown);
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "outcome";
                        id: string;
                        store_id: string;
                        /** @enum {string} */
                        action: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        value: number | null;
                        occurred_at: string | null;
                        note: string | null;
                        lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                        lost_reason_other: string | null;
                        recorded_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_deals: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                store_id?: string;
                stage?: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "deal";
                            id: string;
                            store_id: string;
                            name: string;
                            /** @enum {string} */
                            stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                            amount: number | null;
                            currency: string | null;
                            owner_email: string | null;
                            /** @description Increases on every change; send it as If-Match */
                            version: number;
                            created_at: string;
                            updated_at: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    create_deal: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    store_id: string;
                    /**
                     * @default discovery
                     * @enum {string}
                     */
                    stage?: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                    name: string;
                    amount?: number | null;
                    currency?: string;
                    /** Format: email */
                    owner_email?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        store_id: string;
                        name: string;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        amount: number | null;
                        currency: string | null;
                        owner_email: string | null;
                        /** @description Increases on every change; send it as If-Match */
                        version: number;
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_deal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the deal */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        store_id: string;
                        name: string;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        amount: number | null;
                        currency: string | null;
                        owner_email: string | null;
                        /** @description Increases on every change; send it as If-Match */
                        version: number;
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    update_deal: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the deal the change is based on; a stale version ⇒ 409 */
                "if-match"?: string;
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the deal */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    amount?: number | null;
                    currency?: string;
                    /** Format: email */
                    owner_email?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        store_id: string;
                        name: string;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        amount: number | null;
                        currency: string | null;
                        owner_email: string | null;
                        /** @description Increases on every change; send it as If-Match */
                        version: number;
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    move_deal_stage: {
        parameters: {
            query?: never;
            header: {
                /** @description Version of the deal the change is based on; a stale version ⇒ 409 */
                "if-match"?: string;
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the deal */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        store_id: string;
                        name: string;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        amount: number | null;
                        currency: string | null;
                        owner_email: string | null;
                        /** @description Increases on every change; send it as If-Match */
                        version: number;
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    add_deal_note: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the deal */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal_note";
                        id: string;
                        deal_id: string;
                        body: string;
                        created_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    find_contacts: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                store_id?: string;
                email?: string;
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "contact";
                            id: string;
                            store_id: string;
                            name: string | null;
                            email: string | null;
                            role: string | null;
                            /** @enum {string} */
                            source: "manual" | "discovered";
                            created_at: string;
                            updated_at: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    add_contact: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    store_id: string;
                    name?: string;
                    /** Format: email */
                    email?: string;
                    role?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "contact";
                        id: string;
                        store_id: string;
                        name: string | null;
                        email: string | null;
                        role: string | null;
                        /** @enum {string} */
                        source: "manual" | "discovered";
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    update_contact: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the contact */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** Format: email */
                    email?: string;
                    role?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "contact";
                        id: string;
                        store_id: string;
                        name: string | null;
                        email: string | null;
                        role: string | null;
                        /** @enum {string} */
                        source: "manual" | "discovered";
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    discover_contacts: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    store_id: string;
                    roles?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "contact";
                            store_id: string;
                            name: string | null;
                            email: string | null;
                            role: string | null;
                            /** @enum {string} */
                            source: "manual" | "discovered";
                            created_at: string;
                            updated_at: string;
                            id: null;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_managed_watch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "managed_watch";
                        size: number;
                        /** @enum {string} */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @enum {string} */
                        status: "active" | "cancelled" | "none";
                        recent_events: {
                            [key: string]: unknown;
                        }[];
                        latest_brief_url: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_watches: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                type?: "self_directed" | "client";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "watch";
                            id: string;
                            /** @enum {string} */
                            type: "self_directed" | "client";
                            store_id: string;
                            client_name: string | null;
                            /** @enum {string} */
                            health: "healthy" | "degraded" | "failing" | "paused";
                            last_event_at: string | null;
                            created_at: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    add_watch: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "self_directed" | "client";
                    store_id: string;
                    client_name?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "watch";
                        id: string;
                        /** @enum {string} */
                        type: "self_directed" | "client";
                        store_id: string;
                        client_name: string | null;
                        /** @enum {string} */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        last_event_at: string | null;
                        created_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    remove_watch: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the watch */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        object: "watch";
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_wallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "wallet";
                        balance: number;
                        currency: string;
                        usage_this_month: number;
                        pricing: {
                            item: string;
                            unit_price: number;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_supervision: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "supervision";
                        approvals: {
                            id: string;
                            action: string;
                            /** @enum {string} */
                            status: "pending" | "approved" | "rejected";
                            requested_at: string;
                        }[];
                        standing_rules: {
                            id: string;
                            rule: string;
                            created_at: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    request_growth_report: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    store_id: string;
                    month?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "growth_report";
                        id: string;
                        store_id: string;
                        /** @enum {string} */
                        status: "queued" | "running" | "ready" | "failed";
                        url: string | null;
                        requested_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_growth_report: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the growth report */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "growth_report";
                        id: string;
                        store_id: string;
                        /** @enum {string} */
                        status: "queued" | "running" | "ready" | "failed";
                        url: string | null;
                        requested_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    enroll_outreach: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    store_id: string;
                    cadence_id: string;
                    contact_id?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "outreach_enrollment";
                        id: string;
                        store_id: string;
                        cadence_id: string;
                        /** @enum {string} */
                        status: "active" | "stopped" | "completed";
                        created_at: string;
                        stopped_at: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    stop_outreach: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the enrollment */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "outreach_enrollment";
                        id: string;
                        store_id: string;
                        cadence_id: string;
                        /** @enum {string} */
                        status: "active" | "stopped" | "completed";
                        created_at: string;
                        stopped_at: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_webhooks: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "webhook_endpoint";
                            id: string;
                            url: string;
                            /** @description null: every event type */
                            event_types: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[] | null;
                            description: string | null;
                            enabled: boolean;
                            /** @description Why the endpoint is disabled (by a PATCH, a 410 answer, or five days of failed deliveries) */
                            disabled_reason: string | null;
                            disabled_at: string | null;
                            /** @description Until then the secret before the last rotation also signs every delivery */
                            previous_secret_expires_at: string | null;
                            created_at: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    register_webhook: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description https URL (http only with the local-development setting)
                     */
                    url: string;
                    event_types?: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[];
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "webhook_endpoint";
                        id: string;
                        url: string;
                        /** @description null: every event type */
                        event_types: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[] | null;
                        description: string | null;
                        enabled: boolean;
                        /** @description Why the endpoint is disabled (by a PATCH, a 410 answer, or five days of failed deliveries) */
                        disabled_reason: string | null;
                        disabled_at: string | null;
                        /** @description Until then the secret before the last rotation also signs every delivery */
                        previous_secret_expires_at: string | null;
                        created_at: string;
                        /** @description The signing secret (`whsec_…`), shown once; null on an idempotent replay */
                        secret: string | null;
                        /** @description Why `secret` is null */
                        secret_note?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "webhook_endpoint";
                        id: string;
                        url: string;
                        /** @description null: every event type */
                        event_types: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[] | null;
                        description: string | null;
                        enabled: boolean;
                        /** @description Why the endpoint is disabled (by a PATCH, a 410 answer, or five days of failed deliveries) */
                        disabled_reason: string | null;
                        disabled_at: string | null;
                        /** @description Until then the secret before the last rotation also signs every delivery */
                        previous_secret_expires_at: string | null;
                        created_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    delete_webhook: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        object: "webhook_endpoint";
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    update_webhook: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description https URL (http only with the local-development setting)
                     */
                    url?: string;
                    event_types?: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[] | null;
                    description?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "webhook_endpoint";
                        id: string;
                        url: string;
                        /** @description null: every event type */
                        event_types: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[] | null;
                        description: string | null;
                        enabled: boolean;
                        /** @description Why the endpoint is disabled (by a PATCH, a 410 answer, or five days of failed deliveries) */
                        disabled_reason: string | null;
                        disabled_at: string | null;
                        /** @description Until then the secret before the last rotation also signs every delivery */
                        previous_secret_expires_at: string | null;
                        created_at: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotate_webhook_secret: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "webhook_endpoint";
                        id: string;
                        url: string;
                        /** @description null: every event type */
                        event_types: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[] | null;
                        description: string | null;
                        enabled: boolean;
                        /** @description Why the endpoint is disabled (by a PATCH, a 410 answer, or five days of failed deliveries) */
                        disabled_reason: string | null;
                        disabled_at: string | null;
                        /** @description Until then the secret before the last rotation also signs every delivery */
                        previous_secret_expires_at: string | null;
                        created_at: string;
                        /** @description The signing secret (`whsec_…`), shown once; null on an idempotent replay */
                        secret: string | null;
                        /** @description Why `secret` is null */
                        secret_note?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_webhook_deliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "webhook_delivery";
                            /** @description The `webhook-id` of every attempt of this message */
                            id: string;
                            endpoint_id: string;
                            event: {
                                id: string;
                                type: string;
                            };
                            /** @description Per-endpoint sequence number: receivers order by it and spot gaps */
                            sequence: number;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            attempts: {
                                attempt: number;
                                at: string;
                                status_code: number | null;
                                duration_ms: number;
                                error: string | null;
                                next_retry_at: string | null;
                            }[];
                            last_status_code: number | null;
                            last_error: string | null;
                            next_retry_at: string | null;
                            created_at: string;
                            delivered_at: string | null;
                        }[];
                        /** @description Pass as `cursor` for the next page; null at the end of the list */
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retry_webhook_delivery: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
                /** @description Identifier of the delivery (its webhook-id) */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "webhook_delivery";
                        /** @description The `webhook-id` of every attempt of this message */
                        id: string;
                        endpoint_id: string;
                        event: {
                            id: string;
                            type: string;
                        };
                        /** @description Per-endpoint sequence number: receivers order by it and spot gaps */
                        sequence: number;
                        /** @enum {string} */
                        status: "pending" | "delivered" | "failed";
                        attempts: {
                            attempt: number;
                            at: string;
                            status_code: number | null;
                            duration_ms: number;
                            error: string | null;
                            next_retry_at: string | null;
                        }[];
                        last_status_code: number | null;
                        last_error: string | null;
                        next_retry_at: string | null;
                        created_at: string;
                        delivered_at: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    recover_webhook_events: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    since: string;
                    /** Format: date-time */
                    until: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "webhook_recovery";
                        endpoint_id: string;
                        since: string;
                        until: string;
                        scheduled: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    test_webhook: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "webhook_delivery";
                        /** @description The `webhook-id` of every attempt of this message */
                        id: string;
                        endpoint_id: string;
                        event: {
                            id: string;
                            type: string;
                        };
                        /** @description Per-endpoint sequence number: receivers order by it and spot gaps */
                        sequence: number;
                        /** @enum {string} */
                        status: "pending" | "delivered" | "failed";
                        attempts: {
                            attempt: number;
                            at: string;
                            status_code: number | null;
                            duration_ms: number;
                            error: string | null;
                            next_retry_at: string | null;
                        }[];
                        last_status_code: number | null;
                        last_error: string | null;
                        next_retry_at: string | null;
                        created_at: string;
                        delivered_at: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
