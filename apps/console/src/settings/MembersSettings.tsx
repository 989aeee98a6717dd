import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, ok } from '../api/client';
import { type Role, useSession } from '../app/session';
import { DataTable, Empty, ErrorNote, Field, Loading, When } from '../ui/kit';
import { parseDomains } from './forms';
import { ConfirmButton, NeedsRole } from './parts';

const ROLES: readonly Role[] = ['member', 'admin', 'owner'];
const asRole = (value: string): Role => ROLES.find((r) => r === value) ?? 'member';

/** The account's people and their roles, invitations waiting, and who joins by their email's domain. */
export function MembersSettings() {
  const session = useSession();
  const isAdmin = session.can('admin');
  return (
    <>
      <MemberList isAdmin={isAdmin} isOwner={session.can('owner')} />
      {isAdmin ? (
        <>
          <Invite canInviteOwner={session.can('owner')} />
          <Invitations />
          <AutoJoin />
        </>
      ) : (
        <NeedsRole needed="admin" what="Inviting people, seeing invitations and auto-join" />
      )}
    </>
  );
}

function MemberList({ isAdmin, isOwner }: { isAdmin: boolean; isOwner: boolean }) {
  const session = useSession();
  const client = useQueryClient();
  const members = useQuery({ queryKey: ['settings', 'members'], queryFn: () => ok(api.GET('/members')) });
  const remove = useMutation({
    mutationFn: (userId: string) => ok(api.DELETE('/members/{userId}', { params: { path: { userId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'members'] }),
  });
  const me = session.who.kind === 'member' ? session.who.userId : null;
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {!isOwner && <NeedsRole needed="owner" what="Changing roles" />}
      {members.isPending && <Loading what="the members" />}
      <ErrorNote error={members.error ?? remove.error} />
      {members.data !== undefined &&
        (members.data.length === 0 ? (
          <Empty>No members.</Empty>
        ) : (
          <DataTable headers={['Email', 'Role', 'Joined', isAdmin && 'Actions']}>
            {members.data.map((member) => {
              const email = member.email ?? member.userId;
              return (
                <tr key={member.userId}>
                  <td>
                    {email}
                    {member.userId === me && <span className="muted"> (you)</span>}
                  </td>
                  <td>
                    <RoleControl
                      userId={member.userId}
                      email={email}
                      role={asRole(member.groups[0] ?? 'member')}
                      canChange={isOwner}
                    />
                  </td>
                  <td>
                    <When at={member.createdAt} />
                  </td>
                  {isAdmin && (
                    <td>
                      {member.userId !== me && (
                        <ConfirmButton
                          label={`Remove ${email}`}
                          confirm={`Remove ${email} from the account`}
                          busy={remove.isPending}
                          onConfirm={() => remove.mutate(member.userId)}
                        />
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </DataTable>
        ))}
    </section>
  );
}

/** A role, changed by an owner with the select and its own button (a select alone changes on arrow keys). */
function RoleControl({
  userId,
  email,
  role,
  canChange,
}: {
  userId: string;
  email: string;
  role: Role;
  canChange: boolean;
}) {
  const client = useQueryClient();
  const [chosen, setChosen] = useState(role);
  const change = useMutation({
    mutationFn: () =>
      ok(api.PATCH('/members/{userId}', { params: { path: { userId } }, body: { role: chosen } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'members'] }),
  });
  return (
    <form
      className="role-form"
      onSubmit={(event) => {
        event.preventDefault();
        change.mutate();
      }}
    >
      <label className="visually-hidden" htmlFor={`role-${userId}`}>
        Role of {email}
      </label>
      <select
        id={`role-${userId}`}
        value={chosen}
        disabled={!canChange}
        onChange={(event) => setChosen(asRole(event.target.value))}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {canChange && chosen !== role && (
        <button type="submit" className="small" disabled={change.isPending}>
          Change role
        </button>
      )}
      <ErrorNote error={change.error} />
    </form>
  );
}

function Invite({ canInviteOwner }: { canInviteOwner: boolean }) {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const invite = useMutation({
    mutationFn: () => ok(api.POST('/members', { body: { email: email.trim(), role } })),
    onSuccess: async () => {
      setEmail('');
      await client.invalidateQueries({ queryKey: ['settings', 'members'] });
      await client.invalidateQueries({ queryKey: ['settings', 'invitations'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() !== '') invite.mutate();
  };
  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form className="inline-form" onSubmit={submit} aria-label="Invite a member">
        <Field label="Email">
          {(id) => (
            <input
              id={id}
              type="email"
              value={email}
              maxLength={320}
              autoComplete="off"
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <Field label="Role">
          {(id) => (
            <select id={id} value={role} onChange={(event) => setRole(asRole(event.target.value))}>
              {ROLES.filter((r) => r !== 'owner' || canInviteOwner).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" disabled={invite.isPending}>
          Invite
        </button>
      </form>
      {invite.data !== undefined && (
        <p role="status" className="note">
          {invite.data.message}
        </p>
      )}
      <ErrorNote error={invite.error} />
    </section>
  );
}

function Invitations() {
  const client = useQueryClient();
  const invitations = useQuery({
    queryKey: ['settings', 'invitations'],
    queryFn: () => ok(api.GET('/members/invitations')),
  });
  const cancel = useMutation({
    mutationFn: (email: string) =>
      ok(api.DELETE('/members/invitations/{email}', { params: { path: { email } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'invitations'] }),
  });
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations waiting</h2>
      {invitations.isPending && <Loading what="the invitations" />}
      <ErrorNote error={invitations.error ?? cancel.error} />
      {invitations.data !== undefined &&
        (invitations.data.invitations.length === 0 ? (
          <Empty>No invitation is waiting.</Empty>
        ) : (
          <DataTable headers={['Email', 'Role', 'Expires', 'Actions']}>
            {invitations.data.invitations.map((invitation) => (
              <tr key={invitation.email}>
                <td>{invitation.email}</td>
                <td>{invitation.role}</td>
                <td>
                  <When at={invitation.expiresAt} />
                </td>
                <td>
                  <ConfirmButton
                    label={`Cancel the invitation of ${invitation.email}`}
                    confirm={`Withdraw it`}
                    busy={cancel.isPending}
                    onConfirm={() => cancel.mutate(invitation.email)}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        ))}
    </section>
  );
}

function AutoJoin() {
  const client = useQueryClient();
  const current = useQuery({
    queryKey: ['settings', 'autojoin'],
    queryFn: () => ok(api.GET('/members/autojoin')),
  });
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? current.data?.domains.join(', ') ?? '';
  const save = useMutation({
    mutationFn: () => ok(api.POST('/members/autojoin', { body: { domains: parseDomains(shown) } })),
    onSuccess: async () => {
      setText(null);
      await client.invalidateQueries({ queryKey: ['settings', 'autojoin'] });
    },
  });
  return (
    <section aria-labelledby="autojoin-title">
      <h2 id="autojoin-title">Auto-join</h2>
      <p className="hint">
        People signing in for the first time with a verified email of these domains join as members.
      </p>
      {current.isPending && <Loading what="the auto-join domains" />}
      <ErrorNote error={current.error} />
      {current.data !== undefined && (
        <form
          className="inline-form"
          aria-label="Auto-join domains"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate();
          }}
        >
          <Field label="Domains" hint="Separated by commas; empty turns auto-join off.">
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                value={shown}
                onChange={(event) => setText(event.target.value)}
              />
            )}
          </Field>
          <button type="submit" disabled={save.isPending}>
            Save domains
          </button>
        </form>
      )}
      <ErrorNote error={save.error} />
    </section>
  );
}
