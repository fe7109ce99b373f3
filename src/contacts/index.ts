/**
 * The contacts module's public face (contacts of stores): another module imports the contacts module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { Contact } from './events.js';
export { readContactsRun } from './source.js';
export { contactsOfStore, contactsWithoutStore, getContact, ingestedContacts, replaceStoreContacts, type StoreContact } from './store.js';
