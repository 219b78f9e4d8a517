/**
 * The Signer's credential Tests as n8n finds them: in the node's methods, under the name each signing
 * key credential is tested by (its `testedBy`).
 */
import { ExpandSigner } from '../../packages/signer/nodes/ExpandSigner/ExpandSigner.node';

const { credentialTest } = new ExpandSigner().methods;

export const expandSignerKeyTest = credentialTest.expandSignerKeyTest;
export const expandSolanaKeyTest = credentialTest.expandSolanaKeyTest;
export const expandTronKeyTest = credentialTest.expandTronKeyTest;
