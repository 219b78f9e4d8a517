/**
 * The name of the API credential type, for the code that reads it. Node descriptions spell it out
 * literally, as n8n's lint rules read it there.
 */
export const EXPAND_API_CREDENTIAL = 'expandApi';
