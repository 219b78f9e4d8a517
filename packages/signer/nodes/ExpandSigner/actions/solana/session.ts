import type { SolanaKeyring } from '../../families/solana';
import type { FamilySession } from '../session';

export type SolanaSession = FamilySession<SolanaKeyring>;
