import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api/client';

/** What this deployment offers: member sign-ins, and the development outbox of `npm start`. */
export const useConsoleConfig = () =>
  useQuery({
    queryKey: ['console-config'],
    queryFn: () => ok(api.GET('/console/config')),
    staleTime: Infinity,
  });
