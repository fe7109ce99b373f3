/**
 * The oauth module's public face (the assistant connector's server and grants): another module imports the oauth module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { OAUTH_PREFIX, accountIdOf, mcpResourceOf, type OAuthServer, storedClientId } from './provider.js';
export { pruneOAuthRecords, recordGrant, revokeMemberGrants } from './store.js';
