/**
 * A browser for the assistant connector's sign-in, over plain HTTP (no Chromium): a cookie jar,
 * redirects followed by hand, the sign-in form and the consent screen filled in from their HTML.
 * It stops at the first redirect off the server (the assistant's callback) and hands back its
 * query. One instance is one browser: its session carries over to the next sign-in.
 */
export class HttpBrowser {
  private readonly jar = new Map<string, string>();
  constructor(readonly origin: string) {}

  private async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const res = await fetch(new URL(url, this.origin), {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, i).trim(), pair!.slice(i + 1).trim()];
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()));
      if (expired || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  /** GETs `url` and follows redirects on this server; returns the last page, or the off-server Location. */
  async open(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<{ page?: { url: string; status: number; html: string }; left?: URL }> {
    let res = await this.request(url, init);
    let at = new URL(url, this.origin).href;
    for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
      if (hops > 10) throw new Error(`too many redirects from ${url}`);
      const to = new URL(res.headers.get('location')!, at);
      if (to.origin !== this.origin) return { left: to };
      at = to.href;
      res = await this.request(at);
    }
    return { page: { url: at, status: res.status, html: await res.text() } };
  }

  /**
   * Follows an authorization URL through sign-in (when this browser is not signed in) and the
   * consent screen, allowing the workspace named; returns the callback's query (`code`, `iss` …).
   */
  async authorize(authorizationUrl: URL | string, member: { email: string; password: string; workspaceId: string }): Promise<URLSearchParams> {
    const step = await this.toConsent(authorizationUrl, member);
    if (step.left) return step.left.searchParams;
    const done = await this.allow(step.page!, member.workspaceId);
    if (!done.left) throw new Error(`the consent did not lead back to the assistant: ${done.page?.status} at ${done.page?.url}: ${done.page?.html.slice(0, 300)}`);
    return done.left.searchParams;
  }

  /** Follows an authorization URL through sign-in (when this browser is not signed in) to the consent screen (or off the server). */
  async toConsent(authorizationUrl: URL | string, member: { email: string; password: string }): Promise<{ page?: { url: string; status: number; html: string }; left?: URL }> {
    let step = await this.open(String(authorizationUrl));
    if (step.page && new URL(step.page.url).pathname === '/signin') {
      const signIn = step.page;
      step = await this.open('/signin', { method: 'POST', form: { csrf: field(signIn.html, 'csrf'), next: field(signIn.html, 'next'), email: member.email, password: member.password } });
    }
    if (step.page && !/\/oauth\/interaction\//.test(step.page.url)) throw new Error(`expected the consent screen, got ${step.page.status} at ${step.page.url}: ${step.page.html.slice(0, 300)}`);
    return step;
  }

  /** Allows the workspace named on the consent screen `consent`: the page it leads to, or off the server. */
  allow(consent: { url: string; html: string }, workspaceId: string): ReturnType<HttpBrowser['open']> {
    return this.open(consent.url, { method: 'POST', form: { csrf: field(consent.html, 'csrf'), decision: 'allow', workspace: workspaceId } });
  }

  /** Signs out with the Integrations page's form. */
  async signOut(): Promise<void> {
    const page = (await this.open('/integrations')).page!;
    const csrf = /action="\/signout"><input type="hidden" name="csrf" value="([^"]*)"/.exec(page.html)?.[1];
    if (!csrf) throw new Error(`no sign-out form at ${page.url}`);
    await this.open('/signout', { method: 'POST', form: { csrf } });
  }
}

/** A hidden field's value in a page's HTML. */
function field(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no field ${name} in ${html.slice(0, 300)}`);
  return m[1]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

export const REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * The assistant's side, in memory. Without a client id of its own the SDK registers one (`info`);
 * a pre-registered client passes its id. Both official SDKs (@modelcontextprotocol/client 2.x
 * and @modelcontextprotocol/sdk 1.x) take it as their OAuthClientProvider.
 */
export class MemoryProvider {
  info?: any;
  saved?: any;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl: string;
  constructor(
    readonly name: string,
    opts: { redirectUrl?: string; clientId?: string } = {},
  ) {
    this.redirectUrl = opts.redirectUrl ?? REDIRECT;
    if (opts.clientId) this.info = { client_id: opts.clientId };
  }
  get clientMetadata() {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: any) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: any) {
    this.saved = t;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  discovery?: any;
  saveDiscoveryState(state: any) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}
