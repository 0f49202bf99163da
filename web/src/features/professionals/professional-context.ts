import { createContext, useContext } from 'react';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { readProfessionalStatus, type ProfessionalStatus } from '@/lib/session';
import { browserStore } from '@/lib/storage';

export interface ProfessionalAccount {
  /** The server's answer; null when it could not be read. */
  professional: Professional | null;
  status: ProfessionalStatus;
}

/** The signed-in professional, shared by ProfessionalGate with the pages under it. */
export const ProfessionalContext = createContext<ProfessionalAccount | null>(null);

/** The signed-in professional (under ProfessionalGate), or the stored state alone. */
export function useProfessionalAccount(): ProfessionalAccount {
  return (
    useContext(ProfessionalContext) ?? {
      professional: null,
      status: readProfessionalStatus(browserStore()),
    }
  );
}
