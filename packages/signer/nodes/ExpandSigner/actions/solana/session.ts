import type { SolanaKeyring } from '../../families/solana';
import type { FamilySession } from '../common';

export type SolanaSession = FamilySession<SolanaKeyring>;
