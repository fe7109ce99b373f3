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
         * @description The workspace's in-market accounts in ranking order: best score first (then store_id), except that every tenth row is an exploration pick marked `explore` (listed to learn from its outcome, see the accounts guide; explore rows run best score first among themselves, and any beyond one in ten come last); the rest by score descending, then store_id; `filter=all` widens the list to every scored account (search). `min_score`, `country`, `category`, `plan`, `status`, `signal_type` and `signals_since` narrow either list and combine; a cursor only continues the walk with the filters it was issued for (other filters ⇒ 400). Accounts with status `disqualified`, `do_not_contact` or `customer` are never in-market but stay listed with `filter=all`. Every returned row is marked delivered to the agent in the same transaction that serves the page.
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
         * @description The account row (score, evidence, status, recent signals) plus the store's latest features, the status history (newest first), a summary of its signal history, its deals and its contacts (oldest first). A store the workspace cannot see (outside its profile, or unknown) ⇒ 404. Reading the detail delivers the row to the agent: `delivered_to_agent` becomes true, as for the rows of list_accounts.
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
    "/model-insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the workspace model's insights
         * @description The current model version and when it was fitted, the labels it learned from (each store's latest outcome), its largest weights with their posterior standard deviation and 95% interval, and a backtest on the workspace's own outcomes: each store won or lost is scored with the score it had in the ranking current when its first outcome was recorded (never by a model that had seen a label of it), giving the overall win rate, lift at 10 and 50 (win rate of the best-scored 10 or 50 ÷ the overall win rate), calibration by score decile (mean score against observed win rate, with counts), and the win rate and lifts as they stood at each of the last ten model versions. A figure resting on fewer than 30 outcomes is marked `small_sample: true`: read its counts, not its rate.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_model_insights"];
        put?: never;
        post?: never;
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
         * @description The workspace's deals in creation order (a walk sees each deal once), narrowed by `stage`, `store_id`, `owner_email` and `updated_since`, which combine. A cursor only continues the walk with the filters it was issued for (other filters ⇒ 400). Filters narrow the workspace's own deals and look nothing up: a `store_id` it has no deals of (another workspace's store included) gives an empty page, and one it no longer sees still finds its deals; an `owner_email` that is no email address ⇒ 400.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_deals"];
        put?: never;
        /**
         * Create a deal
         * @description Creates a deal (version 1) for a store the workspace can see (another ⇒ 404), at `stage` (default `discovery`; `lost` needs `lost_reason`, and `lost_reason_other` when it is `other`, exactly like an Outcome). The starting stage is a learning label for the ranking, like an outcome of that action. Emits `deal.created`.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: available.
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
         * @description Another workspace's deal, or an unknown id ⇒ 404.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_deal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a deal
         * @description Changes title, value, currency, owner_email or expected_close_date (null clears a field; the stage moves with move_deal_stage); a body naming none ⇒ 400. With `If-Match: <version>` the change applies only to that version: a stale one ⇒ 409 (of two changes based on one version exactly one wins). Each changed field is one history entry. Emits `deal.updated` with the changes; a change that changes nothing emits nothing and keeps the version.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: available.
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
         * @description Moves the deal along the transition table (discovery → qualifying, proposal, negotiation, won, lost; qualifying → discovery, proposal, negotiation, won, lost; proposal → discovery, qualifying, negotiation, won, lost; negotiation → discovery, qualifying, proposal, won, lost; won → discovery, qualifying, proposal, negotiation; lost → discovery, qualifying, proposal, negotiation); anything else, including the stage it is in, ⇒ 422 naming from and to. `lost` needs `lost_reason` (and `lost_reason_other` when it is `other`) ⇒ 400 otherwise; leaving lost clears them. `If-Match: <version>`: a stale one ⇒ 409. The new stage is a learning label for the ranking, like an outcome of that action. Emits only `deal.stage_changed`.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: available.
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
        /**
         * List a deal's notes
         * @description Oldest first, paged.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_deal_notes"];
        put?: never;
        /**
         * Add a note to a deal
         * @description Adds a note with the key as actor. The deal's version does not move; emits no event.
         *
         *     Scope: `write:deals`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["add_deal_note"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deals/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a deal's history
         * @description Every change in the order it happened: the creation, each stage move and each changed field, with from, to, actor and time. Paged.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_deal_history"];
        put?: never;
        post?: never;
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
         * @description The workspace's contacts, oldest first, paged. `email` (exact, compared normalised), `name` (part of it, any case), `store_id` (exact) and `q` (part of the name, email, role or store id, any case) narrow the list and combine; a cursor continues only the walk of the filters it was issued for (other filters ⇒ 400). Filters narrow the workspace's own contacts and look nothing up: a `store_id` it has no contacts at (another workspace's store included) gives an empty page, and one it no longer sees still finds its contacts; an `email` that is no email address ⇒ 400.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["find_contacts"];
        put?: never;
        /**
         * Add a contact
         * @description Adds a contact for a store the workspace can see (else 404). The email is stored trimmed with its domain lower-cased; one the workspace already has (in any case of its domain) ⇒ 409 naming the existing contact (`existing_contact_id`). A contact whose email the contact source lists for the store is `discovered` (with the source), any other `manual`. Emits `contact.created` with the contact.
         *
         *     Scope: `write:contacts`. Call kind: write (20 per minute per key). Availability: available.
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
        /**
         * Read one contact
         * @description Another workspace's contact id ⇒ 404.
         *
         *     Scope: `read:accounts`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_contact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a contact
         * @description Changes the given fields (`null` clears a name or role); a body naming none ⇒ 400. A new email is normalised like on add; one another contact of the workspace has ⇒ 409 naming it. Only values that differ count: a change that changes none (an email differing only in its domain's case included) writes nothing and answers the contact as it was, `updated_at` unchanged. Another workspace's contact id ⇒ 404. Emits no event.
         *
         *     Scope: `write:contacts`. Call kind: write (20 per minute per key). Availability: available.
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
         * @description Suggests contacts for a store the workspace can see (else 404) from the contact source the data team supplies, each with its source, leaving out emails the workspace has already saved (at most 100, by email). `roles` keeps the suggestions whose role is one of them (any case). Creates nothing (add a suggestion with add_contact) and emits no event.
         *
         *     Scope: `write:contacts`. Call kind: write (20 per minute per key). Availability: available.
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
         * @description The workspace's managed watch: the service watches its in-market accounts, best score first, up to the capacity. Status `none` (and health `paused`) until it is started with resize_managed_watch.
         *
         *     Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_managed_watch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Resize (or start) the managed watch
         * @description Sets the capacity: how many in-market accounts the managed watch holds. Starts the managed watch when there is none, and restarts a cancelled one (its health stays `paused` until the next check). Health is derived at the next check.
         *
         *     Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: available.
         */
        patch: operations["resize_managed_watch"];
        trace?: never;
    };
    "/watch/managed/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel the managed watch
         * @description Cancels the managed watch: it is no longer checked and its health becomes `paused` (one `watch.health_changed` event). Cancelling a cancelled watch changes nothing. No managed watch ⇒ 404. Resizing restarts it.
         *
         *     Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["cancel_managed_watch"];
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
         * List watches with their health
         * @description The workspace's watches (the managed one too, once started), oldest first; `type` narrows the list.
         *
         *     Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_watches"];
        put?: never;
        /**
         * Add a self-directed or client watch
         * @description A self-directed watch (stores the workspace picks) or a client watch (a client's name and its stores). Every store must be one of the workspace's accounts: otherwise 404 naming them (`store_ids`), and nothing is added. At most 1000 stores per watch (422 beyond), and at most 100 self-directed and client watches per workspace (one more ⇒ 422). Health is derived at the next check.
         *
         *     Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: available.
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
        /**
         * Read one watch
         * @description Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_watch"];
        put?: never;
        post?: never;
        /**
         * Remove a self-directed or client watch
         * @description Removes the watch with its stores, events and receipts. The managed watch is cancelled, not removed (409).
         *
         *     Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: available.
         */
        delete: operations["remove_watch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches/{id}/stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a watch's stores
         * @description A self-directed or client watch's stores by store id; the managed watch's in ranking order (best score first, up to its capacity). A cursor of the managed watch's stores walks the ranking it was issued in: once the accounts, their ranking or the capacity changed, it answers 400 invalid-cursor (start again without one).
         *
         *     Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_watch_stores"];
        put?: never;
        /**
         * Add stores to a self-directed or client watch
         * @description Stores already in the watch stay as they are. Every store must be one of the workspace's accounts: otherwise 404 naming them (`store_ids`), and nothing is added. At most 1000 stores per watch (422 beyond). The managed watch's stores follow the ranking (409).
         *
         *     Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: available.
         */
        post: operations["add_watch_stores"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches/{id}/stores/{store_id}": {
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
         * Remove a store from a self-directed or client watch
         * @description A store the watch does not hold ⇒ 404. The managed watch's stores follow the ranking (409).
         *
         *     Scope: `write:watch`. Call kind: write (20 per minute per key). Availability: available.
         */
        delete: operations["remove_watch_store"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a watch's events
         * @description What each check found, per store and month (signals, sharp revenue falls, absences) and for the watch as a whole (staleness, capacity, health changes): newest month first.
         *
         *     Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_watch_events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches/{id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a watch's receipts
         * @description Proof of each check, newest first: the month and run it read, the stores it checked and the health it found.
         *
         *     Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_watch_receipts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches/{id}/brief": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a watch's brief
         * @description A plain-words summary of the latest checked month: the changes in the watched stores and the watch's findings that held at its latest check (one that stopped holding is left out; the events keep it). JSON by default; markdown with `format=markdown`.
         *
         *     Scope: `read:watch`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_watch_brief"];
        put?: never;
        post?: never;
        delete?: never;
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
         * Read the wallet: balance, spend this month, cap and plan
         * @description Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: available.
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
    "/wallet/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the ledger: every debit, credit and refund with its cause
         * @description The append-only ledger, newest first. Every entry names the operation, idempotency key and actor that caused it; the balance is the sum of all entries.
         *
         *     Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_wallet_usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/wallet/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the current price list
         * @description The price of every billable unit (growth report, outreach enrollment, outreach step, account delivered beyond the plan allowance), each with the version of the price list it belongs to.
         *
         *     Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_wallet_pricing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/wallet/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List approvals (charges waiting for, or decided by, an owner)
         * @description Newest first. Owners and admins decide pending ones with `storelens wallet approve|deny ID`.
         *
         *     Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["list_wallet_approvals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/wallet/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the standing rules (auto-approve amount, monthly cap)
         * @description Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: available.
         */
        get: operations["get_wallet_rules"];
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
         * What agents and keys did on the workspace's behalf
         * @description Accounts delivered, reports requested, outreach enrollments and steps sent, newest first; each names the key or member, what allowed it (an approval or a standing rule) and its ledger entry. Supervision reads use scope read:wallet (approvals and standing rules are supervision data).
         *
         *     Scope: `read:wallet`. Call kind: read (120 per minute per key). Availability: available.
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
        /**
         * List requested growth reports, newest first
         * @description Scope: `generate:reports`. Call kind: read (120 per minute per key). Availability: activation-gated.
         */
        get: operations["list_growth_reports"];
        put?: never;
        /**
         * Request a growth report for a store
         * @description Charged from the wallet on acceptance (price `growth_report` of GET /wallet/pricing): 202 with the report (`queued`; get_growth_report reads it by its `id`). A charge at or above the auto-approve amount answers 202 with the report `awaiting_approval` until an owner decides. Too little balance ⇒ 409 insufficient-funds; over the monthly cap ⇒ 409 spend-cap-reached. A store the workspace cannot see ⇒ 404. Call kind `report` (5 a minute per key).
         *
         *     Scope: `generate:reports`. Call kind: report (5 per minute per key). Availability: activation-gated.
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
         * @description JSON by default; a finished report as markdown with `format=markdown`.
         *
         *     Scope: `generate:reports`. Call kind: read (120 per minute per key). Availability: activation-gated.
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
    "/outreach/cadences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List outreach cadences, newest first
         * @description Scope: `write:outreach`. Call kind: read (120 per minute per key). Availability: pilot.
         */
        get: operations["list_outreach_cadences"];
        put?: never;
        /**
         * Create an outreach cadence (named steps with delays in days)
         * @description Steps are in order and their days never decrease, e.g. day 0, 3 and 7.
         *
         *     Scope: `write:outreach`. Call kind: write (20 per minute per key). Availability: pilot.
         */
        post: operations["create_outreach_cadence"];
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
        /**
         * List outreach enrollments, newest first
         * @description Scope: `write:outreach`. Call kind: read (120 per minute per key). Availability: pilot.
         */
        get: operations["list_outreach_enrollments"];
        put?: never;
        /**
         * Enroll a store's contact in an outreach cadence
         * @description Charged on acceptance (price `outreach_enrollment`): 201 with the enrollment `active`, its first step due at day 0 of the cadence; 202 `awaiting_approval` when the charge is at or above the auto-approve amount. An account with status `do_not_contact` or `disqualified` ⇒ 422; a contact of another store ⇒ 422; an unknown store, contact or cadence ⇒ 404; the store's contact already active in this cadence ⇒ 409; wallet problems ⇒ 409 insufficient-funds or spend-cap-reached.
         *
         *     Scope: `write:outreach`. Call kind: write (20 per minute per key). Availability: pilot.
         */
        post: operations["enroll_outreach"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outreach/enrollments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an outreach enrollment and its steps
         * @description Scope: `write:outreach`. Call kind: read (120 per minute per key). Availability: pilot.
         */
        get: operations["get_outreach_enrollment"];
        put?: never;
        post?: never;
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
         * Stop an outreach enrollment
         * @description No further step is sent. An enrollment awaiting approval stops too: its pending approval is withdrawn (nothing was debited for it). Stopping one that already ended ⇒ 409.
         *
         *     Scope: `write:outreach`. Call kind: write (20 per minute per key). Availability: pilot.
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
         * @description Registers an https URL whose host resolves to public addresses only, up to 20 endpoints a workspace (disabled ones count, deleted ones do not; one more ⇒ 422). Leaving out `event_types` delivers every event type. The signing secret is returned once, in this response; a replay with the same Idempotency-Key returns the endpoint with `secret: null` and says why. Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). A URL the SSRF guard refuses ⇒ 422.
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
         * @description Changes the URL (checked like at registration), the event types (null: every type), the description, or enables/disables the endpoint; a body naming none ⇒ 400. Enabling clears the reason it was disabled; events that happened while it was disabled are not sent (use recover).
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
         * @description Schedules the message again at once, with the same `webhook-id` and a fresh retry schedule (delivered, failed or pending alike); 409 while a worker is sending it, or when the endpoint is disabled.
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
         * @description After a receiver outage: every event of the endpoint's types that happened in [since, until] is sent again (a message that exists keeps its webhook-id). Events are kept 30 days: an older `since` ⇒ 422. A disabled endpoint ⇒ 409 (enable it first).
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
         * @description Sends a `webhook.test` event to the endpoint, signed like every delivery; it appears in the delivery log. A disabled endpoint ⇒ 409.
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
export interface webhooks {
    "deal.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A deal was created (create_deal)
         * @description Emitted by `create_deal`, in the transaction that creates the deal.
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "deal.created",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "deal_id": "deal_01a20af35a890000018aa6d63c",
                     *         "store_id": "s-000123",
                     *         "deal": {
                     *           "object": "deal",
                     *           "id": "deal_01a20af35a890000018aa6d63c",
                     *           "store_id": "s-000123",
                     *           "title": "Spring relaunch",
                     *           "value": 12000,
                     *           "currency": "EUR",
                     *           "stage": "discovery",
                     *           "owner_email": null,
                     *           "expected_close_date": null,
                     *           "lost_reason": null,
                     *           "lost_reason_other": null,
                     *           "version": 1,
                     *           "created_at": "2026-11-23T10:04:12.345Z",
                     *           "updated_at": "2026-11-23T10:04:12.345Z"
                     *         },
                     *         "actor": "key:key_910fe256b3cf1ff814e5",
                     *         "created_at": "2026-11-23T10:04:12.345Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "deal.created";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            deal_id: string;
                            store_id: string;
                            /** @description The deal as `get_deal` answers it */
                            deal: {
                                /** @constant */
                                object: "deal";
                                id: string;
                                /** @description The account (store) the deal is with */
                                store_id: string;
                                title: string;
                                /** @description Deal value in `currency` */
                                value: number | null;
                                /** @description ISO 4217 */
                                currency: string | null;
                                /** @enum {string} */
                                stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                                /** @description Who owns the deal (trimmed, domain lower-cased) */
                                owner_email: string | null;
                                /** @description YYYY-MM-DD */
                                expected_close_date: string | null;
                                /** @description Why it was lost, while the stage is `lost` */
                                lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                                /** @description The free text of lost_reason `other` */
                                lost_reason_other: string | null;
                                /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
                                version: number;
                                created_at: string;
                                updated_at: string;
                            };
                            /** @description Who made the change: `key:<key id>` for a change made through the API */
                            actor: string;
                            created_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deal.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A deal's fields changed (update_deal)
         * @description Emitted by `update_deal` when a field really changes (a change that changes nothing emits nothing). The stage is not a field: a stage move emits only `deal.stage_changed`.
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "deal.updated",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "deal_id": "deal_01a20af35a890000018aa6d63c",
                     *         "store_id": "s-000123",
                     *         "deal": {
                     *           "object": "deal",
                     *           "id": "deal_01a20af35a890000018aa6d63c",
                     *           "store_id": "s-000123",
                     *           "title": "Spring relaunch",
                     *           "value": 15000,
                     *           "currency": "EUR",
                     *           "stage": "discovery",
                     *           "owner_email": null,
                     *           "expected_close_date": null,
                     *           "lost_reason": null,
                     *           "lost_reason_other": null,
                     *           "version": 2,
                     *           "created_at": "2026-11-23T10:04:12.345Z",
                     *           "updated_at": "2026-11-23T10:05:00.000Z"
                     *         },
                     *         "changes": [
                     *           {
                     *             "field": "value",
                     *             "from": 12000,
                     *             "to": 15000
                     *           }
                     *         ],
                     *         "actor": "key:key_910fe256b3cf1ff814e5",
                     *         "changed_at": "2026-11-23T10:05:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "deal.updated";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            deal_id: string;
                            store_id: string;
                            /** @description The deal after the change */
                            deal: {
                                /** @constant */
                                object: "deal";
                                id: string;
                                /** @description The account (store) the deal is with */
                                store_id: string;
                                title: string;
                                /** @description Deal value in `currency` */
                                value: number | null;
                                /** @description ISO 4217 */
                                currency: string | null;
                                /** @enum {string} */
                                stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                                /** @description Who owns the deal (trimmed, domain lower-cased) */
                                owner_email: string | null;
                                /** @description YYYY-MM-DD */
                                expected_close_date: string | null;
                                /** @description Why it was lost, while the stage is `lost` */
                                lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                                /** @description The free text of lost_reason `other` */
                                lost_reason_other: string | null;
                                /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
                                version: number;
                                created_at: string;
                                updated_at: string;
                            };
                            /** @description One entry per changed field */
                            changes: {
                                field: string;
                                from: string | number | null;
                                to: string | number | null;
                            }[];
                            /** @description Who made the change: `key:<key id>` for a change made through the API */
                            actor: string;
                            changed_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deal.stage_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A deal moved to another stage (move_deal_stage)
         * @description Emitted by `move_deal_stage` (only this event, not `deal.updated`).
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "deal.stage_changed",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "deal_id": "deal_01a20af35a890000018aa6d63c",
                     *         "store_id": "s-000123",
                     *         "from": "discovery",
                     *         "to": "proposal",
                     *         "version": 2,
                     *         "changed_at": "2026-11-23T10:06:00.000Z",
                     *         "actor": "key:key_910fe256b3cf1ff814e5",
                     *         "lost_reason": null,
                     *         "lost_reason_other": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "deal.stage_changed";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            deal_id: string;
                            store_id: string;
                            /** @enum {string} */
                            from: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                            /** @enum {string} */
                            to: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                            /** @description The deal's version after the move: the If-Match of the next change */
                            version: number;
                            changed_at: string;
                            /** @description Who made the change: `key:<key id>` for a change made through the API */
                            actor: string;
                            /** @description Set when `to` is `lost` */
                            lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                            /** @description The free text of lost_reason `other` */
                            lost_reason_other: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A contact was added (add_contact)
         * @description Emitted by `add_contact`, in the transaction that adds the contact. Suggestions of `discover_contacts` emit nothing.
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "contact.created",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "contact": {
                     *           "object": "contact",
                     *           "id": "con_84f290fd4e9876cf699b",
                     *           "store_id": "s-000123",
                     *           "name": "Maya Buyer",
                     *           "email": "maya.buyer@example.com",
                     *           "role": "Buyer",
                     *           "source": "manual",
                     *           "source_detail": null,
                     *           "created_by": "key:key_910fe256b3cf1ff814e5",
                     *           "created_at": "2026-11-23T10:07:00.000Z",
                     *           "updated_at": "2026-11-23T10:07:00.000Z"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "contact.created";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            /** @description The contact as `get_contact` answers it */
                            contact: {
                                /** @constant */
                                object: "contact";
                                id: string;
                                store_id: string;
                                name: string | null;
                                /** @description Normalised: trimmed, the domain lower-cased */
                                email: string;
                                role: string | null;
                                /**
                                 * @description `discovered` when the contact source listed this email for the store when it was added, else `manual`
                                 * @enum {string}
                                 */
                                source: "manual" | "discovered";
                                /** @description For a discovered contact: where the data team's source found it */
                                source_detail: string | null;
                                /** @description `key:<key id>` for a contact added through the API */
                                created_by: string;
                                created_at: string;
                                updated_at: string;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "store.entered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A store joined the in-market list
         * @description Emitted when the store joined the in-market list, by whatever made the new list current: the re-ranking of the workspace (after an ingest, an outcome, a status, deal or profile change), or `storelens accounts import` (a new or updated account the file lists in market, or one a status had kept off), or, without store data, the re-listing after a status lets an imported account back on.
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "store.entered",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "store_id": "s-000123",
                     *         "transition": "entered",
                     *         "score": 0.81,
                     *         "explore": false,
                     *         "signals": [
                     *           {
                     *             "id": "sig_d3f79a3c80f89c889f5665de10a224e9",
                     *             "type": "ad_channel_started",
                     *             "month": "2026-10",
                     *             "subject": "tiktok",
                     *             "detail": "Started advertising on TikTok",
                     *             "strength": 0.7
                     *           }
                     *         ],
                     *         "model_version": 12
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "store.entered";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            store_id: string;
                            /** @constant */
                            transition: "entered";
                            score: number;
                            /** @description In the list as exploration, not for its score alone */
                            explore: boolean;
                            /** @description Its recent signals, at most 10, as its account row shows them */
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
                            /** @description The model version of the store's row: the workspace model version of the re-ranking; 0 for a score imported with `storelens accounts import` */
                            model_version: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "store.exited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A store left the in-market list
         * @description Emitted when the store left the in-market list: by the re-ranking of the workspace (after an ingest, an outcome, a status, deal or profile change), as its score fell or an operator set a status such as `disqualified`; by `storelens accounts import`, as the file says `"in_market": false` or the account has such a status; without store data, by the re-listing after such a status. And by a re-ranking when the workspace can no longer see the store: then `score` is null and `reason` says so.
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "store.exited",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "store_id": "s-000456",
                     *         "transition": "exited",
                     *         "score": 0.12,
                     *         "model_version": 13
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "store.exited";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            store_id: string;
                            /** @constant */
                            transition: "exited";
                            /** @description null when the store is no longer visible to the workspace */
                            score: number | null;
                            /** @description Set when the store is no longer visible: `no longer visible` */
                            reason?: string;
                            /** @description The model version of the store's row: the workspace model version of the re-ranking; 0 for a score imported with `storelens accounts import` */
                            model_version: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "store.signal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An in-market store has a new signal
         * @description Emitted by the re-ranking of the workspace (after an ingest, an outcome, a status, deal or profile change) when a store that stays in market has a signal it did not have before: one event per new signal. Never by `storelens accounts import`: an import file carries no signals (its `signal` evidence items are reasons for the score).
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "store.signal",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "store_id": "s-000789",
                     *         "signal": {
                     *           "id": "sig_c920d3bef84e3f254ae0d3ab091f20db",
                     *           "type": "app_installed",
                     *           "month": "2026-10",
                     *           "subject": "klaviyo",
                     *           "detail": "Installed klaviyo",
                     *           "strength": 0.5
                     *         },
                     *         "score": 0.62,
                     *         "model_version": 13
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "store.signal";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            store_id: string;
                            signal: {
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
                            };
                            score: number;
                            /** @description The model version of the store's row: the workspace model version of the re-ranking; 0 for a score imported with `storelens accounts import` */
                            model_version: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "watch.health_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A watch's health level changed
         * @description Emitted by the health check of the watches (after every ingest, and when a watch is added or its stores change), and when a watch is cancelled or restarted, when the watch's health level changes.
         *
         *     Sent to every enabled endpoint whose `event_types` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by `webhook-id`. At most 4 messages per endpoint are in flight at once.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
                    "webhook-id": components["parameters"]["WebhookId"];
                    /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
                    "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                    /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
                    "webhook-signature": components["parameters"]["WebhookSignature"];
                    /** @description The message's number among this endpoint's messages (the body's `sequence`). */
                    "webhook-sequence": components["parameters"]["WebhookSequence"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8b367e69e607401cdb4a",
                     *       "type": "watch.health_changed",
                     *       "created_at": "2026-11-23T10:04:12.345Z",
                     *       "workspace_id": "ws_befccae793ecb10908e2",
                     *       "sequence": 14,
                     *       "data": {
                     *         "watch_id": "wat_2e7f738efd2e0eb0e1ef",
                     *         "from": "healthy",
                     *         "to": "degraded",
                     *         "reason": "s-000123: Monthly visits down 60%"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The event's id (`evt_…`): the same event sent to two endpoints has the same id */
                        id: string;
                        /** @constant */
                        type: "watch.health_changed";
                        /** @description When the change happened (ISO 8601, UTC) */
                        created_at: string;
                        workspace_id: string;
                        /** @description Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed) */
                        sequence: number;
                        data: {
                            watch_id: string;
                            /** @enum {string} */
                            from: "healthy" | "degraded" | "failing" | "paused";
                            /** @enum {string} */
                            to: "healthy" | "degraded" | "failing" | "paused";
                            /** @description Why, in plain words */
                            reason: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description RFC 7807 problem details (application/problem+json); some kinds add members, named on their operations */
        Problem: {
            /** @description Stable URI of the problem kind */
            type: string;
            title: string;
            status: number;
            detail: string;
            /** @description One per invalid parameter or field (invalid-parameters, invalid-body) */
            errors?: {
                path: string;
                message: string;
            }[];
            /** @description The scope the call needs (insufficient-scope) */
            required_scope?: string;
            /** @description The activation the workspace needs (activation-required) */
            activation?: string;
            /** @description Seconds to wait (rate-limited) */
            retry_after?: number;
        } & {
            [key: string]: unknown;
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
                /** @description With `idempotency-request-in-progress`: seconds to wait before retrying */
                "Retry-After"?: number;
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
        /** @description The ETag of a copy the caller has (`"3"`, or a list, or `*`): when it names the current one, 304 without a body. */
        IfNoneMatch: string;
        /** @description The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates. */
        WebhookId: string;
        /** @description Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes). */
        WebhookTimestamp: string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches. */
        WebhookSignature: string;
        /** @description The message's number among this endpoint's messages (the body's `sequence`). */
        WebhookSequence: string;
    };
    requestBodies: never;
    headers: {
        /** @description Remaining quota and seconds to reset, e.g. `"read";r=119;t=42` */
        RateLimit: string;
        /** @description Quota policy, e.g. `"read";q=120;w=60` */
        RateLimitPolicy: string;
        /** @description Seconds to wait before retrying */
        RetryAfter: number;
        /** @description The resource's `version` as a strong entity tag (`"3"`): send it as If-Match to change exactly that version, or as If-None-Match to read it again only when it changed */
        ETag: string;
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
                /** @description Only accounts scoring at least this: a score, 0–1 (e.g. 0.7); outside ⇒ 400 */
                min_score?: number;
                /** @description Only accounts of this country: a two-letter ISO 3166-1 code, in either case (`gb` finds `GB`) */
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
                            /** @description log(score / (1 − score)): the sum of the evidence contributions, added up in their order */
                            logit: number;
                            /** @description The posterior standard deviation of `logit` (the model's uncertainty about this account's score); null for a score imported without the model (and for rows ranked before it was kept, until the next refit) */
                            logit_sd: number | null;
                            /** @description The score's 90% credible interval; null when `logit_sd` is (an imported score) */
                            score_interval: {
                                /** @description The share of the posterior the interval holds: 0.9 */
                                level: number;
                                /** @description σ(logit − 1.645 × logit_sd): the score is below this with probability 0.05 */
                                low: number;
                                /** @description σ(logit + 1.645 × logit_sd): the score is above this with probability 0.05 */
                                high: number;
                            } | null;
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
                        /** @description log(score / (1 − score)): the sum of the evidence contributions, added up in their order */
                        logit: number;
                        /** @description The posterior standard deviation of `logit` (the model's uncertainty about this account's score); null for a score imported without the model (and for rows ranked before it was kept, until the next refit) */
                        logit_sd: number | null;
                        /** @description The score's 90% credible interval; null when `logit_sd` is (an imported score) */
                        score_interval: {
                            /** @description The share of the posterior the interval holds: 0.9 */
                            level: number;
                            /** @description σ(logit − 1.645 × logit_sd): the score is below this with probability 0.05 */
                            low: number;
                            /** @description σ(logit + 1.645 × logit_sd): the score is above this with probability 0.05 */
                            high: number;
                        } | null;
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
                        /** @description The account's deals, oldest first */
                        deals: {
                            /** @constant */
                            object: "deal";
                            id: string;
                            /** @description The account (store) the deal is with */
                            store_id: string;
                            title: string;
                            /** @description Deal value in `currency` */
                            value: number | null;
                            /** @description ISO 4217 */
                            currency: string | null;
                            /** @enum {string} */
                            stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                            /** @description Who owns the deal (trimmed, domain lower-cased) */
                            owner_email: string | null;
                            /** @description YYYY-MM-DD */
                            expected_close_date: string | null;
                            /** @description Why it was lost, while the stage is `lost` */
                            lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                            /** @description The free text of lost_reason `other` */
                            lost_reason_other: string | null;
                            /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
                            version: number;
                            created_at: string;
                            updated_at: string;
                        }[];
                        /** @description The workspace's contacts at this store, oldest first */
                        contacts: {
                            /** @constant */
                            object: "contact";
                            id: string;
                            store_id: string;
                            name: string | null;
                            /** @description Normalised: trimmed, the domain lower-cased */
                            email: string;
                            role: string | null;
                            /**
                             * @description `discovered` when the contact source listed this email for the store when it was added, else `manual`
                             * @enum {string}
                             */
                            source: "manual" | "discovered";
                            /** @description For a discovered contact: where the data team's source found it */
                            source_detail: string | null;
                            /** @description `key:<key id>` for a contact added through the API */
                            created_by: string;
                            created_at: string;
                            updated_at: string;
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
    get_model_insights: {
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
                        object: "model_insights";
                        /** @description The current model version; null before the workspace was first ranked */
                        model_version: number | null;
                        /** @description When the current model was fitted */
                        trained_at: string | null;
                        /** @description The current ranking version */
                        ranking_version: number;
                        /** @description What the model learns from */
                        labels: {
                            /** @description Stores with an outcome (a store's latest outcome is its label) */
                            total: number;
                            won: number;
                            lost: number;
                            /** @description Latest outcome a stage between (discovery … negotiation): a weaker positive label */
                            in_progress: number;
                            /** @description Labels the current model was fitted on (stores it could see) */
                            used_by_model: number;
                        };
                        /** @description The model's starting logit for every account */
                        intercept: {
                            weight: number;
                            sd: number;
                        } | null;
                        /** @description The 10 largest weights by absolute value (intercept apart); empty before the first ranking */
                        weights: {
                            /** @description The input, e.g. `country:US`, `app:klaviyo`, `signal:traffic_up` (`:earlier`: the signal in an earlier month) */
                            feature: string;
                            /** @description The same in plain words */
                            label: string;
                            /** @description The input's weight in the logit (posterior mode) */
                            weight: number;
                            /** @description Posterior standard deviation of the weight (Laplace approximation at the mode) */
                            sd: number;
                            /** @description 95% credible interval [low, high]: weight ± 1.96 sd */
                            interval: number[];
                            /** @description The starting weighting: where the weight is without labels */
                            prior: {
                                mean: number;
                                sd: number;
                            };
                            /** @description How far the workspace's outcomes moved the weight from its starting weighting, in prior standard deviations: (weight − prior.mean) ÷ prior.sd (0 before any label) */
                            moved: number;
                        }[];
                        /** @description What the outcomes taught: the 10 weights they moved furthest from the starting weighting (largest |moved|, intercept apart, only weights that moved); empty before any label */
                        learned: {
                            /** @description The input, e.g. `country:US`, `app:klaviyo`, `signal:traffic_up` (`:earlier`: the signal in an earlier month) */
                            feature: string;
                            /** @description The same in plain words */
                            label: string;
                            /** @description The input's weight in the logit (posterior mode) */
                            weight: number;
                            /** @description Posterior standard deviation of the weight (Laplace approximation at the mode) */
                            sd: number;
                            /** @description 95% credible interval [low, high]: weight ± 1.96 sd */
                            interval: number[];
                            /** @description The starting weighting: where the weight is without labels */
                            prior: {
                                mean: number;
                                sd: number;
                            };
                            /** @description How far the workspace's outcomes moved the weight from its starting weighting, in prior standard deviations: (weight − prior.mean) ÷ prior.sd (0 before any label) */
                            moved: number;
                        }[];
                        /** @description Outcomes scored with what the model predicted before it saw them: each store with its score when its first outcome was recorded, its result its latest outcome */
                        backtest: {
                            /** @description Stores whose latest outcome is won or lost and whose first outcome found them in the ranking */
                            outcomes_scored: number;
                            wins: number;
                            /** @description wins / outcomes_scored; null when there is nothing to divide by */
                            win_rate: number | null;
                            /** @description True when the figure rests on fewer than 30 outcomes: read the counts, not the rate */
                            small_sample: boolean;
                            /** @description Stores won or lost that the ranking did not list when their first outcome was recorded (or recorded before scores were kept) */
                            unscored: number;
                            /** @description Why the figures are thin, when they are */
                            note: string | null;
                            /** @description Observed win rate of the top k outcomes by their score at the time, against the overall observed win rate */
                            lift_at_10: {
                                /** @description How many of the best-scored outcomes (by their score at the time) the lift is measured in */
                                k: number;
                                /** @description Outcomes in that top group (fewer than k when fewer were scored) */
                                n: number;
                                /** @description Of them, won */
                                wins: number;
                                /** @description wins / n; null when there is nothing to divide by */
                                win_rate: number | null;
                                /** @description win_rate of the top group ÷ win_rate of every scored outcome (1 = no better than the average); null when every scored outcome is in the top group, or none was won */
                                lift: number | null;
                                /** @description True when the figure rests on fewer than 30 outcomes: read the counts, not the rate */
                                small_sample: boolean;
                            };
                            /** @description Observed win rate of the top k outcomes by their score at the time, against the overall observed win rate */
                            lift_at_50: {
                                /** @description How many of the best-scored outcomes (by their score at the time) the lift is measured in */
                                k: number;
                                /** @description Outcomes in that top group (fewer than k when fewer were scored) */
                                n: number;
                                /** @description Of them, won */
                                wins: number;
                                /** @description wins / n; null when there is nothing to divide by */
                                win_rate: number | null;
                                /** @description win_rate of the top group ÷ win_rate of every scored outcome (1 = no better than the average); null when every scored outcome is in the top group, or none was won */
                                lift: number | null;
                                /** @description True when the figure rests on fewer than 30 outcomes: read the counts, not the rate */
                                small_sample: boolean;
                            };
                            /** @description Predicted against observed win rate by score decile (ten entries, always) */
                            calibration: {
                                /** @description 1 = the lowest-scored tenth of the scored outcomes, 10 = the highest */
                                decile: number;
                                /** @description Scored outcomes in the decile (the deciles add up to outcomes_scored) */
                                count: number;
                                wins: number;
                                score_min: number | null;
                                score_max: number | null;
                                /** @description Mean score at the time (the predicted rate); null when there is nothing to divide by */
                                predicted: number | null;
                                /** @description wins / count (the observed win rate); null when there is nothing to divide by */
                                observed: number | null;
                                /** @description True when the figure rests on fewer than 30 outcomes: read the counts, not the rate */
                                small_sample: boolean;
                            }[];
                            /** @description How the backtest moved over the last 10 model versions that scored an outcome, oldest first */
                            history: {
                                /** @description The backtest as it stood while this model version was current: every outcome recorded up to then */
                                model_version: number;
                                outcomes_scored: number;
                                wins: number;
                                /** @description wins / outcomes_scored; null when there is nothing to divide by */
                                win_rate: number | null;
                                lift_at_10: number | null;
                                lift_at_50: number | null;
                                /** @description True when the figure rests on fewer than 30 outcomes: read the counts, not the rate */
                                small_sample: boolean;
                            }[];
                        };
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
                            /** @description log(score / (1 − score)): the sum of the evidence contributions, added up in their order */
                            logit: number;
                            /** @description The posterior standard deviation of `logit` (the model's uncertainty about this account's score); null for a score imported without the model (and for rows ranked before it was kept, until the next refit) */
                            logit_sd: number | null;
                            /** @description The score's 90% credible interval; null when `logit_sd` is (an imported score) */
                            score_interval: {
                                /** @description The share of the posterior the interval holds: 0.9 */
                                level: number;
                                /** @description σ(logit − 1.645 × logit_sd): the score is below this with probability 0.05 */
                                low: number;
                                /** @description σ(logit + 1.645 × logit_sd): the score is above this with probability 0.05 */
                                high: number;
                            } | null;
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
                /** @description Only deals in this stage */
                stage?: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                /** @description Only deals of this store */
                store_id?: string;
                /** @description Only deals of this owner */
                owner_email?: string;
                /** @description Only deals changed at or after this time (ISO 8601 with a zone, e.g. 2026-03-01T00:00:00Z) */
                updated_since?: string;
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
                            /** @description The account (store) the deal is with */
                            store_id: string;
                            title: string;
                            /** @description Deal value in `currency` */
                            value: number | null;
                            /** @description ISO 4217 */
                            currency: string | null;
                            /** @enum {string} */
                            stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                            /** @description Who owns the deal (trimmed, domain lower-cased) */
                            owner_email: string | null;
                            /** @description YYYY-MM-DD */
                            expected_close_date: string | null;
                            /** @description Why it was lost, while the stage is `lost` */
                            lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                            /** @description The free text of lost_reason `other` */
                            lost_reason_other: string | null;
                            /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
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
                    /** @description A store the workspace can see (one of its accounts); another ⇒ 404 */
                    store_id: string;
                    title: string;
                    /**
                     * @description Where the deal starts (default `discovery`)
                     * @default discovery
                     * @enum {string}
                     */
                    stage?: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                    /**
                     * @description Required when the stage is `lost` (and only then)
                     * @enum {string}
                     */
                    lost_reason?: "no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other";
                    /** @description Required when lost_reason is `other` (and only then) */
                    lost_reason_other?: string;
                    value?: number | null;
                    currency?: string | null;
                    owner_email?: string | null;
                    expected_close_date?: string | null;
                } & (unknown & unknown);
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    ETag: components["headers"]["ETag"];
                    /** @description Where the resource is read: `/api/v1/deals/{id}` */
                    Location: string;
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        /** @description The account (store) the deal is with */
                        store_id: string;
                        title: string;
                        /** @description Deal value in `currency` */
                        value: number | null;
                        /** @description ISO 4217 */
                        currency: string | null;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        /** @description Who owns the deal (trimmed, domain lower-cased) */
                        owner_email: string | null;
                        /** @description YYYY-MM-DD */
                        expected_close_date: string | null;
                        /** @description Why it was lost, while the stage is `lost` */
                        lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                        /** @description The free text of lost_reason `other` */
                        lost_reason_other: string | null;
                        /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
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
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_deal: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of a copy the caller has (`"3"`, or a list, or `*`): when it names the current one, 304 without a body. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
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
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        /** @description The account (store) the deal is with */
                        store_id: string;
                        title: string;
                        /** @description Deal value in `currency` */
                        value: number | null;
                        /** @description ISO 4217 */
                        currency: string | null;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        /** @description Who owns the deal (trimmed, domain lower-cased) */
                        owner_email: string | null;
                        /** @description YYYY-MM-DD */
                        expected_close_date: string | null;
                        /** @description Why it was lost, while the stage is `lost` */
                        lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                        /** @description The free text of lost_reason `other` */
                        lost_reason_other: string | null;
                        /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
                        version: number;
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Not Modified: If-None-Match names the current ETag; no body */
            304: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
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
                /** @description The `version` the change is based on, as a read or change of the resource answered it, bare or quoted (`3` or `"3"`); a stale version ⇒ 409. Without it, or with `*` (any version), the change applies to the latest version. */
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
                    title?: string;
                    /** @description null clears it */
                    value?: number | null;
                    /** @description null clears it */
                    currency?: string | null;
                    /** @description null clears it */
                    owner_email?: string | null;
                    /** @description null clears it */
                    expected_close_date?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        /** @description The account (store) the deal is with */
                        store_id: string;
                        title: string;
                        /** @description Deal value in `currency` */
                        value: number | null;
                        /** @description ISO 4217 */
                        currency: string | null;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        /** @description Who owns the deal (trimmed, domain lower-cased) */
                        owner_email: string | null;
                        /** @description YYYY-MM-DD */
                        expected_close_date: string | null;
                        /** @description Why it was lost, while the stage is `lost` */
                        lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                        /** @description The free text of lost_reason `other` */
                        lost_reason_other: string | null;
                        /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
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
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    move_deal_stage: {
        parameters: {
            query?: never;
            header: {
                /** @description The `version` the change is based on, as a read or change of the resource answered it, bare or quoted (`3` or `"3"`); a stale version ⇒ 409. Without it, or with `*` (any version), the change applies to the latest version. */
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
                    /**
                     * @description Required when the stage is `lost` (and only then)
                     * @enum {string}
                     */
                    lost_reason?: "no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other";
                    /** @description Required when lost_reason is `other` (and only then) */
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
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "deal";
                        id: string;
                        /** @description The account (store) the deal is with */
                        store_id: string;
                        title: string;
                        /** @description Deal value in `currency` */
                        value: number | null;
                        /** @description ISO 4217 */
                        currency: string | null;
                        /** @enum {string} */
                        stage: "discovery" | "qualifying" | "proposal" | "negotiation" | "won" | "lost";
                        /** @description Who owns the deal (trimmed, domain lower-cased) */
                        owner_email: string | null;
                        /** @description YYYY-MM-DD */
                        expected_close_date: string | null;
                        /** @description Why it was lost, while the stage is `lost` */
                        lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                        /** @description The free text of lost_reason `other` */
                        lost_reason_other: string | null;
                        /** @description 1 at creation, +1 on every change; a change made only while the deal is at this version names it */
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
    list_deal_notes: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
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
                        object: "list";
                        data: {
                            /** @constant */
                            object: "deal_note";
                            id: string;
                            deal_id: string;
                            body: string;
                            /** @description `key:<key id>` for a note added through the API */
                            actor: string;
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
                        /** @description `key:<key id>` for a note added through the API */
                        actor: string;
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
    list_deal_history: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
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
                        object: "list";
                        data: {
                            /** @constant */
                            object: "deal_change";
                            deal_id: string;
                            /** @description The deal's version after the change */
                            version: number;
                            /** @enum {string} */
                            kind: "created" | "stage_changed" | "field_changed";
                            /** @description `stage` for a creation or a stage move, else the field that changed */
                            field: string;
                            /** @description The value before (null for a creation) */
                            from: string | number | null;
                            /** @description The value after */
                            to: string | number | null;
                            /** @description For a move to (or a creation at) `lost` */
                            lost_reason: ("no_response" | "timing" | "budget" | "chose_another_agency" | "project_cancelled" | "not_a_fit" | "other") | null;
                            lost_reason_other: string | null;
                            /** @description `key:<key id>` for a change made through the API */
                            actor: string;
                            changed_at: string;
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
    find_contacts: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                /** @description Only the contact with this email (trimmed, domain in any case); text that is no email address ⇒ 400; part of one: `q` */
                email?: string;
                /** @description Only contacts whose name contains this, in any case */
                name?: string;
                /** @description Only this store's contacts */
                store_id?: string;
                /** @description Only contacts whose name, email, role or store id contains this, in any case */
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
                            /** @description Normalised: trimmed, the domain lower-cased */
                            email: string;
                            role: string | null;
                            /**
                             * @description `discovered` when the contact source listed this email for the store when it was added, else `manual`
                             * @enum {string}
                             */
                            source: "manual" | "discovered";
                            /** @description For a discovered contact: where the data team's source found it */
                            source_detail: string | null;
                            /** @description `key:<key id>` for a contact added through the API */
                            created_by: string;
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
                    /** @description An email address; stored trimmed with its domain lower-cased, and unique in the workspace */
                    email: string;
                    name?: string;
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
                    /** @description Where the resource is read: `/api/v1/contacts/{id}` */
                    Location: string;
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
                        /** @description Normalised: trimmed, the domain lower-cased */
                        email: string;
                        role: string | null;
                        /**
                         * @description `discovered` when the contact source listed this email for the store when it was added, else `manual`
                         * @enum {string}
                         */
                        source: "manual" | "discovered";
                        /** @description For a discovered contact: where the data team's source found it */
                        source_detail: string | null;
                        /** @description `key:<key id>` for a contact added through the API */
                        created_by: string;
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
    get_contact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the contact */
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
                        object: "contact";
                        id: string;
                        store_id: string;
                        name: string | null;
                        /** @description Normalised: trimmed, the domain lower-cased */
                        email: string;
                        role: string | null;
                        /**
                         * @description `discovered` when the contact source listed this email for the store when it was added, else `manual`
                         * @enum {string}
                         */
                        source: "manual" | "discovered";
                        /** @description For a discovered contact: where the data team's source found it */
                        source_detail: string | null;
                        /** @description `key:<key id>` for a contact added through the API */
                        created_by: string;
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
                    /** @description An email address; stored trimmed with its domain lower-cased, and unique in the workspace */
                    email?: string;
                    name?: string | null;
                    role?: string | null;
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
                        /** @description Normalised: trimmed, the domain lower-cased */
                        email: string;
                        role: string | null;
                        /**
                         * @description `discovered` when the contact source listed this email for the store when it was added, else `manual`
                         * @enum {string}
                         */
                        source: "manual" | "discovered";
                        /** @description For a discovered contact: where the data team's source found it */
                        source_detail: string | null;
                        /** @description `key:<key id>` for a contact added through the API */
                        created_by: string;
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
                            object: "contact_suggestion";
                            store_id: string;
                            name: string | null;
                            email: string;
                            role: string | null;
                            /** @description Where the data team's contact source found the contact */
                            source: string | null;
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
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        /** @description The client's name (client watches) */
                        client_name: string | null;
                        /** @description How many in-market accounts the managed watch holds; null for other watches */
                        capacity: number | null;
                        /** @description Stores the watch holds now */
                        store_count: number;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @description Why, in plain words */
                        health_reason: string;
                        /** @description The latest ingested month of the last check (null: not checked yet) */
                        checked_month: string | null;
                        checked_at: string | null;
                        /** @description null until started */
                        created_at: string | null;
                        updated_at: string | null;
                        /** @constant */
                        object: "managed_watch";
                        /** @description null until the managed watch is started (resize_managed_watch) */
                        id: string | null;
                        /**
                         * @description `none` until the managed watch is started
                         * @enum {string}
                         */
                        status: "active" | "cancelled" | "none";
                        /** @description The workspace's in-market accounts; more than the capacity degrades the watch */
                        in_market_accounts: number;
                        /** @description The five newest events */
                        recent_events: {
                            /** @constant */
                            object: "watch_event";
                            id: string;
                            watch_id: string;
                            /** @description YYYY-MM */
                            month: string;
                            /** @description The store that changed; null for a change of the watch as a whole (health, staleness, capacity) */
                            store_id: string | null;
                            domain: string | null;
                            /** @description A signal type (e.g. `traffic_down`), `revenue_down`, `store_absent`, `data_stale`, `capacity_exceeded` or `health_changed` */
                            kind: string;
                            /**
                             * @description The health the change points to: `healthy` for an informational change
                             * @enum {string}
                             */
                            level: "healthy" | "degraded" | "failing" | "paused";
                            /** @description Plain words */
                            detail: string;
                            created_at: string;
                            /** @description When a later check of the same month no longer found it (null while it holds, and for `health_changed`); found again later, it is a new event */
                            ended_at: string | null;
                        }[];
                        /** @description Path of the brief of the latest check */
                        latest_brief_url: string | null;
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
    resize_managed_watch: {
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
                    /** @description 1–1000 */
                    capacity: number;
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
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        /** @description The client's name (client watches) */
                        client_name: string | null;
                        /** @description How many in-market accounts the managed watch holds; null for other watches */
                        capacity: number | null;
                        /** @description Stores the watch holds now */
                        store_count: number;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @description Why, in plain words */
                        health_reason: string;
                        /** @description The latest ingested month of the last check (null: not checked yet) */
                        checked_month: string | null;
                        checked_at: string | null;
                        /** @description null until started */
                        created_at: string | null;
                        updated_at: string | null;
                        /** @constant */
                        object: "managed_watch";
                        /** @description null until the managed watch is started (resize_managed_watch) */
                        id: string | null;
                        /**
                         * @description `none` until the managed watch is started
                         * @enum {string}
                         */
                        status: "active" | "cancelled" | "none";
                        /** @description The workspace's in-market accounts; more than the capacity degrades the watch */
                        in_market_accounts: number;
                        /** @description The five newest events */
                        recent_events: {
                            /** @constant */
                            object: "watch_event";
                            id: string;
                            watch_id: string;
                            /** @description YYYY-MM */
                            month: string;
                            /** @description The store that changed; null for a change of the watch as a whole (health, staleness, capacity) */
                            store_id: string | null;
                            domain: string | null;
                            /** @description A signal type (e.g. `traffic_down`), `revenue_down`, `store_absent`, `data_stale`, `capacity_exceeded` or `health_changed` */
                            kind: string;
                            /**
                             * @description The health the change points to: `healthy` for an informational change
                             * @enum {string}
                             */
                            level: "healthy" | "degraded" | "failing" | "paused";
                            /** @description Plain words */
                            detail: string;
                            created_at: string;
                            /** @description When a later check of the same month no longer found it (null while it holds, and for `health_changed`); found again later, it is a new event */
                            ended_at: string | null;
                        }[];
                        /** @description Path of the brief of the latest check */
                        latest_brief_url: string | null;
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
    cancel_managed_watch: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
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
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        /** @description The client's name (client watches) */
                        client_name: string | null;
                        /** @description How many in-market accounts the managed watch holds; null for other watches */
                        capacity: number | null;
                        /** @description Stores the watch holds now */
                        store_count: number;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @description Why, in plain words */
                        health_reason: string;
                        /** @description The latest ingested month of the last check (null: not checked yet) */
                        checked_month: string | null;
                        checked_at: string | null;
                        /** @description null until started */
                        created_at: string | null;
                        updated_at: string | null;
                        /** @constant */
                        object: "managed_watch";
                        /** @description null until the managed watch is started (resize_managed_watch) */
                        id: string | null;
                        /**
                         * @description `none` until the managed watch is started
                         * @enum {string}
                         */
                        status: "active" | "cancelled" | "none";
                        /** @description The workspace's in-market accounts; more than the capacity degrades the watch */
                        in_market_accounts: number;
                        /** @description The five newest events */
                        recent_events: {
                            /** @constant */
                            object: "watch_event";
                            id: string;
                            watch_id: string;
                            /** @description YYYY-MM */
                            month: string;
                            /** @description The store that changed; null for a change of the watch as a whole (health, staleness, capacity) */
                            store_id: string | null;
                            domain: string | null;
                            /** @description A signal type (e.g. `traffic_down`), `revenue_down`, `store_absent`, `data_stale`, `capacity_exceeded` or `health_changed` */
                            kind: string;
                            /**
                             * @description The health the change points to: `healthy` for an informational change
                             * @enum {string}
                             */
                            level: "healthy" | "degraded" | "failing" | "paused";
                            /** @description Plain words */
                            detail: string;
                            created_at: string;
                            /** @description When a later check of the same month no longer found it (null while it holds, and for `health_changed`); found again later, it is a new event */
                            ended_at: string | null;
                        }[];
                        /** @description Path of the brief of the latest check */
                        latest_brief_url: string | null;
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
    list_watches: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                /** @description Only watches of this type */
                type?: "managed" | "self_directed" | "client";
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
                            type: "managed" | "self_directed" | "client";
                            /** @description The client's name (client watches) */
                            client_name: string | null;
                            /** @description How many in-market accounts the managed watch holds; null for other watches */
                            capacity: number | null;
                            /** @enum {string} */
                            status: "active" | "cancelled";
                            /** @description Stores the watch holds now */
                            store_count: number;
                            /**
                             * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                             * @enum {string}
                             */
                            health: "healthy" | "degraded" | "failing" | "paused";
                            /** @description Why, in plain words */
                            health_reason: string;
                            /** @description The latest ingested month of the last check (null: not checked yet) */
                            checked_month: string | null;
                            checked_at: string | null;
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
                    /**
                     * @description `self_directed` (stores the workspace picks) or `client` (a client and its stores)
                     * @enum {string}
                     */
                    type: "self_directed" | "client";
                    /** @description Required for a client watch; not allowed otherwise */
                    client_name?: string;
                    /**
                     * @description Stores to watch (up to 200 per call); each must be one of the workspace's accounts
                     * @default []
                     */
                    store_ids?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    /** @description Where the resource is read: `/api/v1/watches/{id}` */
                    Location: string;
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "watch";
                        id: string;
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        /** @description The client's name (client watches) */
                        client_name: string | null;
                        /** @description How many in-market accounts the managed watch holds; null for other watches */
                        capacity: number | null;
                        /** @enum {string} */
                        status: "active" | "cancelled";
                        /** @description Stores the watch holds now */
                        store_count: number;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @description Why, in plain words */
                        health_reason: string;
                        /** @description The latest ingested month of the last check (null: not checked yet) */
                        checked_month: string | null;
                        checked_at: string | null;
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
    get_watch: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "watch";
                        id: string;
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        /** @description The client's name (client watches) */
                        client_name: string | null;
                        /** @description How many in-market accounts the managed watch holds; null for other watches */
                        capacity: number | null;
                        /** @enum {string} */
                        status: "active" | "cancelled";
                        /** @description Stores the watch holds now */
                        store_count: number;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @description Why, in plain words */
                        health_reason: string;
                        /** @description The latest ingested month of the last check (null: not checked yet) */
                        checked_month: string | null;
                        checked_at: string | null;
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
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_watch_stores: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "watch_store";
                            store_id: string;
                            /** @description null for the managed watch (its stores follow the ranking) */
                            added_at: string | null;
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
    add_watch_stores: {
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
        requestBody: {
            content: {
                "application/json": {
                    /** @description Stores to add (1–200 per call) */
                    store_ids: string[];
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
                        object: "watch";
                        id: string;
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        /** @description The client's name (client watches) */
                        client_name: string | null;
                        /** @description How many in-market accounts the managed watch holds; null for other watches */
                        capacity: number | null;
                        /** @enum {string} */
                        status: "active" | "cancelled";
                        /** @description Stores the watch holds now */
                        store_count: number;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @description Why, in plain words */
                        health_reason: string;
                        /** @description The latest ingested month of the last check (null: not checked yet) */
                        checked_month: string | null;
                        checked_at: string | null;
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
    remove_watch_store: {
        parameters: {
            query?: never;
            header: {
                /** @description A stable logical request ID (1–255 characters), remembered for 24 hours. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the watch */
                id: string;
                /** @description Store identifier */
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
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "watch";
                        id: string;
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        /** @description The client's name (client watches) */
                        client_name: string | null;
                        /** @description How many in-market accounts the managed watch holds; null for other watches */
                        capacity: number | null;
                        /** @enum {string} */
                        status: "active" | "cancelled";
                        /** @description Stores the watch holds now */
                        store_count: number;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        /** @description Why, in plain words */
                        health_reason: string;
                        /** @description The latest ingested month of the last check (null: not checked yet) */
                        checked_month: string | null;
                        checked_at: string | null;
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
    list_watch_events: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "watch_event";
                            id: string;
                            watch_id: string;
                            /** @description YYYY-MM */
                            month: string;
                            /** @description The store that changed; null for a change of the watch as a whole (health, staleness, capacity) */
                            store_id: string | null;
                            domain: string | null;
                            /** @description A signal type (e.g. `traffic_down`), `revenue_down`, `store_absent`, `data_stale`, `capacity_exceeded` or `health_changed` */
                            kind: string;
                            /**
                             * @description The health the change points to: `healthy` for an informational change
                             * @enum {string}
                             */
                            level: "healthy" | "degraded" | "failing" | "paused";
                            /** @description Plain words */
                            detail: string;
                            created_at: string;
                            /** @description When a later check of the same month no longer found it (null while it holds, and for `health_changed`); found again later, it is a new event */
                            ended_at: string | null;
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
    list_watch_receipts: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            /** @constant */
                            object: "watch_receipt";
                            id: string;
                            watch_id: string;
                            /** @description The latest ingested month the check read */
                            month: string;
                            /** @description That month's run */
                            run_id: string;
                            stores_checked: number;
                            /** @description The stores checked */
                            store_ids: string[];
                            /**
                             * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                             * @enum {string}
                             */
                            health: "healthy" | "degraded" | "failing" | "paused";
                            health_reason: string;
                            checked_at: string;
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
    get_watch_brief: {
        parameters: {
            query?: {
                /** @description `json` (default) or `markdown` */
                format?: "json" | "markdown";
            };
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "watch_brief";
                        watch_id: string;
                        /** @enum {string} */
                        type: "managed" | "self_directed" | "client";
                        client_name: string | null;
                        /** @description The month the brief covers: the latest checked month (null: not checked yet) */
                        month: string | null;
                        run_id: string | null;
                        /**
                         * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                         * @enum {string}
                         */
                        health: "healthy" | "degraded" | "failing" | "paused";
                        health_reason: string;
                        stores_checked: number;
                        /** @description Plain words */
                        summary: string;
                        /** @description That month's changes in the watched stores and the watch's findings, as the latest check found them */
                        changes: {
                            store_id: string | null;
                            domain: string | null;
                            kind: string;
                            /**
                             * @description healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules
                             * @enum {string}
                             */
                            level: "healthy" | "degraded" | "failing" | "paused";
                            detail: string;
                        }[];
                    };
                    "text/markdown": string;
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
                        /** @description ISO 4217 code */
                        currency: string;
                        /** @description The sum of every ledger entry, in minor units of the currency (cents for USD) */
                        balance: number;
                        /** @description Debits less refunds in the current calendar month (UTC), not counting the monthly statement (which bills the previous month), in minor units of the currency (cents for USD) */
                        spent_this_month: number;
                        monthly_cap: number | null;
                        auto_approve_below: number | null;
                        plan: {
                            name: string;
                            /** @description Accounts delivered per month before each further one is billable (billed once the month ends, as one monthly_statement debit) */
                            accounts_allowance: number;
                        };
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
    list_wallet_usage: {
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
                            object: "ledger_entry";
                            id: string;
                            /** @enum {string} */
                            kind: "credit" | "debit" | "refund";
                            /** @description Signed: credits and refunds positive, debits negative, in minor units of the currency (cents for USD) */
                            amount: number;
                            currency: string;
                            /** @description The balance once this entry was written, in minor units of the currency (cents for USD) */
                            balance_after: number;
                            /** @description The billable unit, for debits and refunds */
                            unit: string | null;
                            quantity: number | null;
                            unit_price: number | null;
                            price_version: number | null;
                            /** @description The operation (or CLI command, or worker step) that caused the entry */
                            operation_id: string;
                            /** @description The request identity of the cause */
                            idempotency_key: string;
                            /** @description `key:<id>`, `member:<email>`, `worker` or `service` */
                            actor: string;
                            /** @description For a debit: `approval:<id>`, `rule:auto_approve_below`, `rule:no_approval_needed`, or `plan:<name>` for the monthly statement of accounts delivered beyond the plan allowance */
                            allowed_by: string | null;
                            approval_id: string | null;
                            refund_of: string | null;
                            reason: string | null;
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
    get_wallet_pricing: {
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
                        object: "list";
                        data: {
                            /** @constant */
                            object: "price";
                            unit: string;
                            /** @description Price of one unit, in minor units of the currency (cents for USD) */
                            unit_price: number;
                            currency: string;
                            /** @description Version of the price list this price belongs to */
                            version: number;
                            description: string;
                            effective_from: string;
                        }[];
                        next_cursor: null;
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
    list_wallet_approvals: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                /** @description Only approvals in this state */
                status?: "pending" | "approved" | "denied" | "withdrawn";
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
                            object: "approval";
                            id: string;
                            /**
                             * @description `withdrawn`: the work it held back ended before anyone decided (an enrollment stopped); nothing is debited and it can no longer be decided
                             * @enum {string}
                             */
                            status: "pending" | "approved" | "denied" | "withdrawn";
                            unit: string;
                            quantity: number;
                            /** @description What it costs once approved, in minor units of the currency (cents for USD) */
                            amount: number;
                            currency: string;
                            operation_id: string;
                            idempotency_key: string;
                            actor: string;
                            resource: {
                                kind: string;
                                id: string;
                            } | null;
                            ledger_entry_id: string | null;
                            requested_at: string;
                            decided_at: string | null;
                            decided_by: string | null;
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
    get_wallet_rules: {
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
                        object: "wallet_rules";
                        currency: string;
                        auto_approve_below: number | null;
                        monthly_cap: number | null;
                        updated_at: string | null;
                        updated_by: string | null;
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
    get_supervision: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                /** @description Only entries of this kind */
                kind?: "accounts_delivered" | "report_requested" | "outreach_enrolled" | "outreach_step_sent";
                /** @description Only what this API key did */
                key_id?: string;
                /** @description Only entries at or after this time (ISO 8601) */
                since?: string;
                /** @description Only entries before this time (ISO 8601) */
                until?: string;
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
                            object: "supervision_entry";
                            id: string;
                            /** @enum {string} */
                            kind: "accounts_delivered" | "report_requested" | "outreach_enrolled" | "outreach_step_sent";
                            /** @description `key:<id>` (an API key) or `member:<email>`; steps the worker sends name the key that enrolled the store */
                            actor: string;
                            api_key_id: string | null;
                            /** @description The report, enrollment or step, or the first store of a delivered page */
                            subject: string | null;
                            quantity: number;
                            detail: {
                                [key: string]: unknown;
                            };
                            /** @description What allowed it: `approval:<id>`, `rule:auto_approve_below`, `rule:no_approval_needed`, `plan:allowance` or `pending:<approval id>` */
                            allowed_by: string;
                            approval_id: string | null;
                            ledger_entry_id: string | null;
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
    list_growth_reports: {
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
                            object: "growth_report";
                            id: string;
                            store_id: string;
                            /** @description The month asked for; null: the latest published month when generated */
                            month: string | null;
                            /** @enum {string} */
                            status: "awaiting_approval" | "queued" | "running" | "done" | "failed";
                            /** @description The debit that paid for it */
                            ledger_entry_id: string | null;
                            approval_id: string | null;
                            /** @description The refund of a failed report */
                            refund_entry_id: string | null;
                            /** @description The finished report (status `done`) */
                            report: {
                                store_id: string;
                                month: string;
                                /** @description The store's features that month (null when the panel has none) */
                                store: {
                                    [key: string]: unknown;
                                } | null;
                                /** @description Published, unsuppressed figures of the store's cells that month */
                                peers: {
                                    slug: string;
                                    metric_key: string;
                                    /** @description `all`, or the store's `country:…`, `category:…` or `plan:…` cell */
                                    dimension: string;
                                    value: number;
                                    n: number;
                                    month: string;
                                    sentence: string;
                                    /** @description The published citation, pinned to the month */
                                    citation: string;
                                    canonical_url: string;
                                }[];
                                signals: {
                                    type: string;
                                    month: string;
                                    detail: string;
                                    strength: number;
                                }[];
                                /** @description What moved the account's score (accounts model) */
                                evidence: {
                                    [key: string]: unknown;
                                }[];
                                recommendations: {
                                    text: string;
                                    metric_key: string;
                                    dimension: string;
                                    citation: string;
                                }[];
                            } | null;
                            /** @description Why it failed (status `failed`) */
                            problem: ({
                                /** @description Stable URI of the problem kind */
                                type: string;
                                title: string;
                                status: number;
                                detail: string;
                                /** @description One per invalid parameter or field (invalid-parameters, invalid-body) */
                                errors?: {
                                    path: string;
                                    message: string;
                                }[];
                                /** @description The scope the call needs (insufficient-scope) */
                                required_scope?: string;
                                /** @description The activation the workspace needs (activation-required) */
                                activation?: string;
                                /** @description Seconds to wait (rate-limited) */
                                retry_after?: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            requested_at: string;
                            finished_at: string | null;
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
                    /** @description Default: the latest published month */
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
                    /** @description Where the resource is read: `/api/v1/reports/growth/{id}` */
                    Location: string;
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "growth_report";
                        id: string;
                        store_id: string;
                        /** @description The month asked for; null: the latest published month when generated */
                        month: string | null;
                        /** @enum {string} */
                        status: "awaiting_approval" | "queued" | "running" | "done" | "failed";
                        /** @description The debit that paid for it */
                        ledger_entry_id: string | null;
                        approval_id: string | null;
                        /** @description The refund of a failed report */
                        refund_entry_id: string | null;
                        /** @description The finished report (status `done`) */
                        report: {
                            store_id: string;
                            month: string;
                            /** @description The store's features that month (null when the panel has none) */
                            store: {
                                [key: string]: unknown;
                            } | null;
                            /** @description Published, unsuppressed figures of the store's cells that month */
                            peers: {
                                slug: string;
                                metric_key: string;
                                /** @description `all`, or the store's `country:…`, `category:…` or `plan:…` cell */
                                dimension: string;
                                value: number;
                                n: number;
                                month: string;
                                sentence: string;
                                /** @description The published citation, pinned to the month */
                                citation: string;
                                canonical_url: string;
                            }[];
                            signals: {
                                type: string;
                                month: string;
                                detail: string;
                                strength: number;
                            }[];
                            /** @description What moved the account's score (accounts model) */
                            evidence: {
                                [key: string]: unknown;
                            }[];
                            recommendations: {
                                text: string;
                                metric_key: string;
                                dimension: string;
                                citation: string;
                            }[];
                        } | null;
                        /** @description Why it failed (status `failed`) */
                        problem: ({
                            /** @description Stable URI of the problem kind */
                            type: string;
                            title: string;
                            status: number;
                            detail: string;
                            /** @description One per invalid parameter or field (invalid-parameters, invalid-body) */
                            errors?: {
                                path: string;
                                message: string;
                            }[];
                            /** @description The scope the call needs (insufficient-scope) */
                            required_scope?: string;
                            /** @description The activation the workspace needs (activation-required) */
                            activation?: string;
                            /** @description Seconds to wait (rate-limited) */
                            retry_after?: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        requested_at: string;
                        finished_at: string | null;
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
    get_growth_report: {
        parameters: {
            query?: {
                /** @description `json` (default) or `markdown` (a finished report only) */
                format?: "json" | "markdown";
            };
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
                        /** @description The month asked for; null: the latest published month when generated */
                        month: string | null;
                        /** @enum {string} */
                        status: "awaiting_approval" | "queued" | "running" | "done" | "failed";
                        /** @description The debit that paid for it */
                        ledger_entry_id: string | null;
                        approval_id: string | null;
                        /** @description The refund of a failed report */
                        refund_entry_id: string | null;
                        /** @description The finished report (status `done`) */
                        report: {
                            store_id: string;
                            month: string;
                            /** @description The store's features that month (null when the panel has none) */
                            store: {
                                [key: string]: unknown;
                            } | null;
                            /** @description Published, unsuppressed figures of the store's cells that month */
                            peers: {
                                slug: string;
                                metric_key: string;
                                /** @description `all`, or the store's `country:…`, `category:…` or `plan:…` cell */
                                dimension: string;
                                value: number;
                                n: number;
                                month: string;
                                sentence: string;
                                /** @description The published citation, pinned to the month */
                                citation: string;
                                canonical_url: string;
                            }[];
                            signals: {
                                type: string;
                                month: string;
                                detail: string;
                                strength: number;
                            }[];
                            /** @description What moved the account's score (accounts model) */
                            evidence: {
                                [key: string]: unknown;
                            }[];
                            recommendations: {
                                text: string;
                                metric_key: string;
                                dimension: string;
                                citation: string;
                            }[];
                        } | null;
                        /** @description Why it failed (status `failed`) */
                        problem: ({
                            /** @description Stable URI of the problem kind */
                            type: string;
                            title: string;
                            status: number;
                            detail: string;
                            /** @description One per invalid parameter or field (invalid-parameters, invalid-body) */
                            errors?: {
                                path: string;
                                message: string;
                            }[];
                            /** @description The scope the call needs (insufficient-scope) */
                            required_scope?: string;
                            /** @description The activation the workspace needs (activation-required) */
                            activation?: string;
                            /** @description Seconds to wait (rate-limited) */
                            retry_after?: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        requested_at: string;
                        finished_at: string | null;
                    };
                    "text/markdown": string;
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
    list_outreach_cadences: {
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
                            object: "outreach_cadence";
                            id: string;
                            name: string;
                            steps: {
                                day: number;
                                name: string;
                            }[];
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
    create_outreach_cadence: {
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
                    name: string;
                    steps: {
                        /** @description Days after enrollment the step is due (0: at once) */
                        day: number;
                        /** @description What the step is, e.g. "intro email"; sent to your sender with the step */
                        name: string;
                    }[];
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
                        object: "outreach_cadence";
                        id: string;
                        name: string;
                        steps: {
                            day: number;
                            name: string;
                        }[];
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
    list_outreach_enrollments: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 in decimal digits (default 50); anything else ⇒ 400 */
                limit?: number;
                /** @description The `next_cursor` of the previous page */
                cursor?: string;
                status?: "awaiting_approval" | "active" | "stopped" | "completed";
                store_id?: string;
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
                            object: "outreach_enrollment";
                            id: string;
                            store_id: string;
                            contact_id: string;
                            cadence_id: string;
                            /** @enum {string} */
                            status: "awaiting_approval" | "active" | "stopped" | "completed";
                            /** @description Index of the next step; null once the enrollment ended */
                            next_step: number | null;
                            next_due_at: string | null;
                            /** @description The debit for the enrollment */
                            ledger_entry_id: string | null;
                            approval_id: string | null;
                            stop_reason: string | null;
                            /** @description Steps recorded so far, in order */
                            steps: {
                                /** @description 0-based index into the cadence */
                                step: number;
                                day: number;
                                due_at: string;
                                /**
                                 * @description `sending` (charged, on its way to your sender: posted again with the same webhook-id if the process sending it stopped); `sent` (your sender accepted it); `held` (no sender configured, or no funds); `failed` (the sender did not accept it; refunded)
                                 * @enum {string}
                                 */
                                status: "sending" | "sent" | "held" | "failed";
                                reason: string | null;
                                ledger_entry_id: string | null;
                                recorded_at: string;
                            }[];
                            created_at: string;
                            stopped_at: string | null;
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
                    contact_id: string;
                    cadence_id: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    /** @description Where the resource is read: `/api/v1/outreach/enrollments/{id}` */
                    Location: string;
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "outreach_enrollment";
                        id: string;
                        store_id: string;
                        contact_id: string;
                        cadence_id: string;
                        /** @enum {string} */
                        status: "awaiting_approval" | "active" | "stopped" | "completed";
                        /** @description Index of the next step; null once the enrollment ended */
                        next_step: number | null;
                        next_due_at: string | null;
                        /** @description The debit for the enrollment */
                        ledger_entry_id: string | null;
                        approval_id: string | null;
                        stop_reason: string | null;
                        /** @description Steps recorded so far, in order */
                        steps: {
                            /** @description 0-based index into the cadence */
                            step: number;
                            day: number;
                            due_at: string;
                            /**
                             * @description `sending` (charged, on its way to your sender: posted again with the same webhook-id if the process sending it stopped); `sent` (your sender accepted it); `held` (no sender configured, or no funds); `failed` (the sender did not accept it; refunded)
                             * @enum {string}
                             */
                            status: "sending" | "sent" | "held" | "failed";
                            reason: string | null;
                            ledger_entry_id: string | null;
                            recorded_at: string;
                        }[];
                        created_at: string;
                        stopped_at: string | null;
                    };
                };
            };
            /** @description Accepted, awaiting an owner's approval of the charge (status `awaiting_approval`) */
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    /** @description Where the resource is read: `/api/v1/outreach/enrollments/{id}` */
                    Location: string;
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "outreach_enrollment";
                        id: string;
                        store_id: string;
                        contact_id: string;
                        cadence_id: string;
                        /** @enum {string} */
                        status: "awaiting_approval" | "active" | "stopped" | "completed";
                        /** @description Index of the next step; null once the enrollment ended */
                        next_step: number | null;
                        next_due_at: string | null;
                        /** @description The debit for the enrollment */
                        ledger_entry_id: string | null;
                        approval_id: string | null;
                        stop_reason: string | null;
                        /** @description Steps recorded so far, in order */
                        steps: {
                            /** @description 0-based index into the cadence */
                            step: number;
                            day: number;
                            due_at: string;
                            /**
                             * @description `sending` (charged, on its way to your sender: posted again with the same webhook-id if the process sending it stopped); `sent` (your sender accepted it); `held` (no sender configured, or no funds); `failed` (the sender did not accept it; refunded)
                             * @enum {string}
                             */
                            status: "sending" | "sent" | "held" | "failed";
                            reason: string | null;
                            ledger_entry_id: string | null;
                            recorded_at: string;
                        }[];
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
    get_outreach_enrollment: {
        parameters: {
            query?: never;
            header?: never;
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "outreach_enrollment";
                        id: string;
                        store_id: string;
                        contact_id: string;
                        cadence_id: string;
                        /** @enum {string} */
                        status: "awaiting_approval" | "active" | "stopped" | "completed";
                        /** @description Index of the next step; null once the enrollment ended */
                        next_step: number | null;
                        next_due_at: string | null;
                        /** @description The debit for the enrollment */
                        ledger_entry_id: string | null;
                        approval_id: string | null;
                        stop_reason: string | null;
                        /** @description Steps recorded so far, in order */
                        steps: {
                            /** @description 0-based index into the cadence */
                            step: number;
                            day: number;
                            due_at: string;
                            /**
                             * @description `sending` (charged, on its way to your sender: posted again with the same webhook-id if the process sending it stopped); `sent` (your sender accepted it); `held` (no sender configured, or no funds); `failed` (the sender did not accept it; refunded)
                             * @enum {string}
                             */
                            status: "sending" | "sent" | "held" | "failed";
                            reason: string | null;
                            ledger_entry_id: string | null;
                            recorded_at: string;
                        }[];
                        created_at: string;
                        stopped_at: string | null;
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
                        contact_id: string;
                        cadence_id: string;
                        /** @enum {string} */
                        status: "awaiting_approval" | "active" | "stopped" | "completed";
                        /** @description Index of the next step; null once the enrollment ended */
                        next_step: number | null;
                        next_due_at: string | null;
                        /** @description The debit for the enrollment */
                        ledger_entry_id: string | null;
                        approval_id: string | null;
                        stop_reason: string | null;
                        /** @description Steps recorded so far, in order */
                        steps: {
                            /** @description 0-based index into the cadence */
                            step: number;
                            day: number;
                            due_at: string;
                            /**
                             * @description `sending` (charged, on its way to your sender: posted again with the same webhook-id if the process sending it stopped); `sent` (your sender accepted it); `held` (no sender configured, or no funds); `failed` (the sender did not accept it; refunded)
                             * @enum {string}
                             */
                            status: "sending" | "sent" | "held" | "failed";
                            reason: string | null;
                            ledger_entry_id: string | null;
                            recorded_at: string;
                        }[];
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
                     * @description https URL (http only with the local-development setting), at most 2048 characters, without a fragment or credentials; blanks around it are trimmed
                     */
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
                    /** @description Where the resource is read: `/api/v1/webhooks/{id}` */
                    Location: string;
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
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
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
                     * @description https URL (http only with the local-development setting), at most 2048 characters, without a fragment or credentials; blanks around it are trimmed
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
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
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
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
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
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
