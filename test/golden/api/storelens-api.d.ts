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
         * @description The workspace's in-market accounts in ranking order (score descending, then store_id); `filter=all` widens the list to every scored account (search). Every returned row is marked delivered to the agent in the same transaction that serves the page.
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
         * @description Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: unavailable.
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
         * @description Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: unavailable.
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
         * @description Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: unavailable.
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
         * @description Scope: `manage:webhooks`. Call kind: read (120 per minute per key). Availability: unavailable.
         */
        get: operations["list_webhooks"];
        put?: never;
        /**
         * Register an event-notification endpoint
         * @description Registers an https URL. Leaving out `event_types` delivers every event type. The signing secret is returned once, in this response; a replay with the same Idempotency-Key does not return it again. Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: unavailable.
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
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an event-notification endpoint
         * @description 200 with `{id, deleted: true}`. An unknown id or another workspace's endpoint ⇒ 404; a replay with the same Idempotency-Key ⇒ the same 200.
         *
         *     Scope: `manage:webhooks`. Call kind: write (20 per minute per key). Availability: available.
         */
        delete: operations["delete_webhook"];
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
                            /** @description Ranking score; higher ranks first */
                            score: number;
                            in_market: boolean;
                            /** @description Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing */
                            selected_for_first_party_surface: boolean;
                            /** @description Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human */
                            delivered_to_agent: boolean;
                            /** @description Signals and features that moved the score */
                            evidence: {
                                [key: string]: unknown;
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
                        /** @description Ranking score; higher ranks first */
                        score: number;
                        in_market: boolean;
                        /** @description Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing */
                        selected_for_first_party_surface: boolean;
                        /** @description Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human */
                        delivered_to_agent: boolean;
                        /** @description Signals and features that moved the score */
                        evidence: {
                            [key: string]: unknown;
                        }[];
                        updated_at: string;
                        features: {
                            [key: string]: unknown;
                        };
                        recent_signals: {
                            /** @constant */
                            object: "signal";
                            id: string;
                            store_id: string;
                            /** @enum {string} */
                            type: "ad_channel_added" | "app_installed" | "app_removed" | "agentic_feature_adopted" | "traffic_jump" | "plan_changed" | "store_entered" | "store_exited";
                            /** @description YYYY-MM */
                            month: string;
                            detail: {
                                [key: string]: unknown;
                            };
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
                            id: string;
                            store_id: string;
                            /** @enum {string} */
                            type: "ad_channel_added" | "app_installed" | "app_removed" | "agentic_feature_adopted" | "traffic_jump" | "plan_changed" | "store_entered" | "store_exited";
                            /** @description YYYY-MM */
                            month: string;
                            detail: {
                                [key: string]: unknown;
                            };
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
                            /** @description Ranking score; higher ranks first */
                            score: number;
                            in_market: boolean;
                            /** @description Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing */
                            selected_for_first_party_surface: boolean;
                            /** @description Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human */
                            delivered_to_agent: boolean;
                            /** @description Signals and features that moved the score */
                            evidence: {
                                [key: string]: unknown;
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
                    /** Format: uri */
                    url: string;
                    event_types?: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[];
                    description?: string;
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
                        object: "webhook_endpoint";
                        id: string;
                        url: string;
                        /** @description null: every event type */
                        event_types: ("deal.created" | "deal.updated" | "deal.stage_changed" | "contact.created" | "store.entered" | "store.exited" | "store.signal" | "watch.health_changed")[] | null;
                        created_at: string;
                        /** @description Shown once; null on a replay */
                        secret: string | null;
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
}
