/**
 * The values of the workspace preference wallet visibility (who sees the wallet); `owners` is
 * the default. Vocabulary the command-line table shares with the workspaces module, kept apart
 * from its store so that reading the table loads no database code.
 */
export const WALLET_VISIBILITIES = ['owners', 'all'] as const;

export type WalletVisibility = (typeof WALLET_VISIBILITIES)[number];
