import type { SolanaKeyring } from '../../families/solana';
import type { FamilySession } from '../account';

export type SolanaSession = FamilySession<SolanaKeyring>;
