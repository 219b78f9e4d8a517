/** Node types that moved to another package, old name to new; saved workflows are rewritten by the signer package's migration. */
export const renamedNodeTypes: Record<string, string> = {
	'n8n-nodes-expand-network.expandSigner': 'n8n-nodes-expand-network-signer.expandSigner',
};
