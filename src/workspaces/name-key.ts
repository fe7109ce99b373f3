/**
 * A workspace name as names are compared: Unicode NFKC (a full-width "Ａｃｍｅ" is "Acme"), then
 * lower case, so "Acme" and "acme" are one name. Stored in workspaces.name_key (unique, migration
 * 0040): fixed, as the stored keys depend on it.
 */
export const nameKey = (name: string): string => name.normalize('NFKC').toLowerCase();
