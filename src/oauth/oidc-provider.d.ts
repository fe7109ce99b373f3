/** The parts of oidc-provider (which ships no types) that the assistant connector uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; scope?: string; resource?: string | string[] };
    session?: { accountId: string };
    grantId?: string;
  }

  export class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export interface ClientInfo {
    clientId: string;
    clientName?: string;
    clientUri?: string;
    redirectUris?: string[];
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, opts?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    on(event: string, listener: (...args: any[]) => void): this;
    Grant: typeof Grant;
    Client: { find(id: string): Promise<ClientInfo | undefined> };
  }

  export const errors: Record<string, new (description?: string, detail?: string) => Error>;
}
