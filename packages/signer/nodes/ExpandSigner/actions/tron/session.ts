import type { TronKeyring } from '../../families/tron';
import type { FamilySession } from '../session';

export type TronSession = FamilySession<TronKeyring>;
