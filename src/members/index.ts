/**
 * The members module's public face (members, their sign-in and keys): another module imports the members module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { memberGrants } from './grants.js';
export { KeyCreatorRefused, KeyManagerRefused, issueApiKey } from './issue-key.js';
export { revokeKeyAsMember } from './revoke-key.js';
export { PASSWORD_MIN, hashPassword, passwordMatches } from './passwords.js';
export { addressSubject, admitSignIn, clearFailures, type Admission, type ThrottleSubject } from './signin-throttle.js';
export { deleteSession, deleteSessionsOf, findOpenInvite, findSession, getMember, insertSession, membershipsOf, passwordHashOf, setPasswordHash, useInvite, type Membership } from './store.js';
