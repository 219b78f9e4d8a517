/**
 * Names of the credential types, for the code that reads them. Node descriptions spell them out
 * literally, as n8n's lint rules (credential tests, testedBy) read them there.
 */
export const EXPAND_API_CREDENTIAL = 'expandApi';
export const SIGNING_KEY_CREDENTIAL = 'expandSignerApi';
export const SOLANA_SIGNING_KEY_CREDENTIAL = 'expandSolanaKeyApi';
