import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { api, ApiError, ok, setCredentials, type Schemas } from '../api/client';

export type Role = 'owner' | 'admin' | 'member';
type Who = Schemas['ConsoleCaller'];

/** Who is signed in, where they act, and what they may change there. */
export interface Session {
  who: Who;
  accountId: string;
  envId: string | null;
  role: Role;
  /** Writes need admin; members and roles need owner (a key acts as admin). */
  can: (needed: Role) => boolean;
  chooseEnvironment: (envId: string) => void;
  signOut: () => Promise<void>;
}

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };
const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside a signed-in console');
  return session;
}

/**
 * Asks the service who the console is signed in as: a member's session cookie (sent by the browser,
 * unreadable here) or, after key sign-in, the key held in memory. 401 means nobody.
 */
export function useWho() {
  return useQuery({
    queryKey: ['console-session'],
    queryFn: async (): Promise<Who | null> => {
      try {
        return await ok(api.GET('/console/session'));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

export function SessionProvider({ who, children }: { who: Who; children: ReactNode }) {
  const client = useQueryClient();
  const [chosen, setChosen] = useState<{ accountId: string; envId: string | null }>(() =>
    who.kind === 'key'
      ? { accountId: who.accountId, envId: who.envId }
      : { accountId: who.accounts[0]?.accountId ?? '', envId: null },
  );
  const chooseEnvironment = useCallback(
    (envId: string) => {
      if (who.kind === 'member') setCredentials({ kind: 'session', envId });
      setChosen((current) => ({ ...current, envId }));
      // Every cached answer belongs to the environment it was asked in.
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'console-session' });
    },
    [who, client],
  );
  const signOut = useCallback(async () => {
    if (who.kind === 'member') await ok(api.POST('/console/sign-out'));
    setCredentials({ kind: 'session', envId: null });
    client.clear();
    window.location.assign('/console/');
  }, [who, client]);
  const session = useMemo((): Session => {
    const role: Role =
      who.kind === 'key'
        ? 'admin'
        : (who.accounts.find((a) => a.accountId === chosen.accountId)?.role ?? 'member');
    return {
      who,
      ...chosen,
      role,
      can: (needed) => RANK[role] >= RANK[needed],
      chooseEnvironment,
      signOut,
    };
  }, [who, chosen, chooseEnvironment, signOut]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
