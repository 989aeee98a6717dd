import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { api, ApiError, ok, setCredentials } from '../api/client';
import { useConsoleConfig } from '../app/config';
import { ErrorNote, Field, Loading } from '../ui/kit';

/** The token of a mailed sign-in link (`/console/sign-in#token=…`): in the fragment, never sent to a server. */
const linkToken = (): string | null => new URLSearchParams(window.location.hash.slice(1)).get('token');

export function SignInPage() {
  const config = useConsoleConfig();
  const token = linkToken();
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Notify</h1>
      {config.isPending && <Loading what="the sign-in options" />}
      {config.isError && <ErrorNote error={config.error} />}
      {token !== null ? (
        <RedeemLink token={token} />
      ) : (
        <>
          {config.data?.linkSignIn === true && <EmailLink />}
          <KeySignIn />
          {config.data?.jwtSignIn === true && <TokenSignIn />}
        </>
      )}
    </main>
  );
}

/** After signing in, the console starts over from the service's answer to "who am I". */
function useSignedIn() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  return async () => {
    await client.invalidateQueries({ queryKey: ['console-session'] });
    navigate('/logs', { replace: true });
  };
}

function EmailLink() {
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: (address: string) => ok(api.POST('/console/sign-in', { body: { email: address } })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email.trim());
  };
  return (
    <section className="card" aria-labelledby="link-title">
      <h2 id="link-title">Email me a sign-in link</h2>
      <form onSubmit={submit}>
        <Field label="Your email address">
          {(id) => (
            <input
              id={id}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={request.isPending}>
          Send the link
        </button>
      </form>
      {request.isSuccess && (
        <p className="note" role="status">
          {request.data.message} The link works once, for 15 minutes.
        </p>
      )}
      <ErrorNote error={request.error} />
    </section>
  );
}

/**
 * The link's page asks before it signs in, so a mail scanner that opens links cannot use the token up.
 */
function RedeemLink({ token }: { token: string }) {
  const signedIn = useSignedIn();
  const redeem = useMutation({
    mutationFn: () => ok(api.POST('/console/session', { body: { token } })),
    onSuccess: async () => {
      window.history.replaceState(null, '', window.location.pathname);
      setCredentials({ kind: 'session', envId: null });
      await signedIn();
    },
  });
  return (
    <section className="card" aria-labelledby="redeem-title">
      <h2 id="redeem-title">Finish signing in</h2>
      <p>This link signs you in on this browser for 12 hours.</p>
      <button type="button" onClick={() => redeem.mutate()} disabled={redeem.isPending}>
        Sign in
      </button>
      <ErrorNote error={redeem.error} />
    </section>
  );
}

/** Key sign-in keeps the key in this page's memory only: reloading the page signs out. */
function KeySignIn() {
  const [key, setKey] = useState('');
  const signedIn = useSignedIn();
  const client = useQueryClient();
  const check = useMutation({
    mutationFn: async (candidate: string) => {
      setCredentials({ kind: 'key', key: candidate });
      try {
        return await ok(api.GET('/console/session'));
      } catch (error) {
        setCredentials({ kind: 'session', envId: null });
        throw error instanceof ApiError && error.status === 401
          ? new Error('The service did not accept that key.')
          : error;
      }
    },
    onSuccess: async (who) => {
      client.setQueryData(['console-session'], who);
      await signedIn();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    check.mutate(key.trim());
  };
  return (
    <section className="card" aria-labelledby="key-title">
      <h2 id="key-title">Use a secret API key</h2>
      <form onSubmit={submit}>
        <Field label="Secret key" hint="Kept in this tab's memory only: reloading the page signs you out.">
          {(id, hint) => (
            <input
              id={id}
              type="password"
              autoComplete="off"
              spellCheck={false}
              required
              aria-describedby={hint}
              value={key}
              onChange={(event) => setKey(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={check.isPending}>
          Sign in with the key
        </button>
      </form>
      <ErrorNote error={check.error} />
    </section>
  );
}

/** A token from the organisation's identity provider, exchanged once for a console session. */
function TokenSignIn() {
  const [jwt, setJwt] = useState('');
  const signedIn = useSignedIn();
  const exchange = useMutation({
    mutationFn: (value: string) => ok(api.POST('/console/session', { body: { jwt: value } })),
    onSuccess: async () => {
      setCredentials({ kind: 'session', envId: null });
      await signedIn();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    exchange.mutate(jwt.trim());
  };
  return (
    <section className="card" aria-labelledby="jwt-title">
      <h2 id="jwt-title">Use a token from your identity provider</h2>
      <form onSubmit={submit}>
        <Field label="Identity token (JWT)">
          {(id) => (
            <textarea
              id={id}
              rows={3}
              spellCheck={false}
              required
              value={jwt}
              onChange={(event) => setJwt(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={exchange.isPending}>
          Sign in with the token
        </button>
      </form>
      <ErrorNote error={exchange.error} />
    </section>
  );
}
