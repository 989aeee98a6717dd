import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { api, ok } from '../api/client';
import { useSession } from '../app/session';
import { CHANNELS } from '../logs/summary';
import { ErrorNote, Field } from '../ui/kit';
import { readOnlyNote, typesKey } from './labels';
import {
  DAYS,
  DELIVERIES,
  type DeliveryForm,
  deliveryOf,
  formOf,
  type NotificationType,
  patchOf,
  SCOPES,
  type TypeForm,
  UNITS,
} from './type-form';

/** A type's settings: channels and their delivery, deduplication, throttling, retention, quiet hours. */
export function TypeSettings({ type }: { type: NotificationType }) {
  const { can } = useSession();
  const admin = can('admin');
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [form, setForm] = useState<TypeForm>(() => formOf(type));
  const [invalid, setInvalid] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const notificationId = type.notificationId;
  const path = { params: { path: { notificationId } } };
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof patchOf>['body']) =>
      ok(api.PATCH('/types/{notificationId}', { ...path, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: typesKey }),
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/types/{notificationId}', path)),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: typesKey });
      navigate('/');
    },
  });
  const set = (change: Partial<TypeForm>) => setForm((current) => ({ ...current, ...change }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { body, invalid: problems } = patchOf(form, type);
    setInvalid(problems);
    if (problems.length === 0) save.mutate(body);
  };
  const toggleChannel = (channel: NotificationType['channels'][number], on: boolean) =>
    set({
      channels: on ? [...form.channels, channel] : form.channels.filter((c) => c !== channel),
      delivery: { ...form.delivery, [channel]: form.delivery[channel] ?? deliveryOf(type.options[channel]) },
    });
  return (
    <form className="type-settings" onSubmit={submit} aria-label="Notification type settings">
      <h2>Settings</h2>
      {!admin && <p className="note">{readOnlyNote}</p>}
      <fieldset disabled={!admin}>
        <Field label="Title">
          {(id) => <input id={id} value={form.title} onChange={(e) => set({ title: e.target.value })} />}
        </Field>
        <div className="checks">
          <Check label="Enabled" checked={form.enabled} onChange={(enabled) => set({ enabled })} />
          <Check
            label="Urgent (ignores quiet hours)"
            checked={form.urgent}
            onChange={(urgent) => set({ urgent })}
          />
        </div>

        <fieldset>
          <legend>Channels and default delivery</legend>
          {CHANNELS.map(({ channel, label }) => {
            const on = form.channels.includes(channel);
            const delivery = form.delivery[channel] ?? deliveryOf(undefined);
            const setDelivery = (change: Partial<DeliveryForm>) =>
              set({ delivery: { ...form.delivery, [channel]: { ...delivery, ...change } } });
            return (
              <div key={channel} className="channel-row">
                <Check label={label} checked={on} onChange={(next) => toggleChannel(channel, next)} />
                {on && (
                  <>
                    <Field label={`${label} default delivery`}>
                      {(id) => (
                        <select
                          id={id}
                          value={delivery.defaultDeliveryOption}
                          onChange={(e) =>
                            setDelivery({
                              defaultDeliveryOption: e.target.value as DeliveryForm['defaultDeliveryOption'],
                            })
                          }
                        >
                          {DELIVERIES.map((d) => (
                            <option key={d} value={d}>
                              {d}
                            </option>
                          ))}
                        </select>
                      )}
                    </Field>
                    <Check
                      label={`Batch ${label} sends`}
                      checked={delivery.batching}
                      onChange={(batching) => setDelivery({ batching })}
                    />
                    {delivery.batching && (
                      <>
                        <Field label={`${label} batching window (seconds)`} hint="60 when empty">
                          {(id, hint) => (
                            <input
                              id={id}
                              aria-describedby={hint}
                              inputMode="numeric"
                              value={delivery.batchingWindow}
                              onChange={(e) => setDelivery({ batchingWindow: e.target.value })}
                            />
                          )}
                        </Field>
                        <Field
                          label={`${label} batching key`}
                          hint="A parameter whose value keeps batches apart"
                        >
                          {(id, hint) => (
                            <input
                              id={id}
                              aria-describedby={hint}
                              value={delivery.batchingKey}
                              onChange={(e) => setDelivery({ batchingKey: e.target.value })}
                            />
                          )}
                        </Field>
                      </>
                    )}
                  </>
                )}
              </div>
            );
          })}
        </fieldset>

        <fieldset>
          <legend>Deduplication and retention</legend>
          <Field label="Deduplication window (seconds)" hint="Empty: identical sends are not deduplicated">
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                inputMode="numeric"
                value={form.deduplication}
                onChange={(e) => set({ deduplication: e.target.value })}
              />
            )}
          </Field>
          <Field label="In-app retention (days)" hint="Empty: 30 days">
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                inputMode="numeric"
                value={form.retention}
                onChange={(e) => set({ retention: e.target.value })}
              />
            )}
          </Field>
        </fieldset>

        <fieldset>
          <legend>Throttling</legend>
          <Check
            label="Throttle sends"
            checked={form.throttling.on}
            onChange={(on) => set({ throttling: { ...form.throttling, on } })}
          />
          {form.throttling.on && (
            <div className="inline-form">
              <Field label="At most (sends)">
                {(id) => (
                  <input
                    id={id}
                    inputMode="numeric"
                    value={form.throttling.max}
                    onChange={(e) => set({ throttling: { ...form.throttling, max: e.target.value } })}
                  />
                )}
              </Field>
              <Field label="Per (period)">
                {(id) => (
                  <input
                    id={id}
                    inputMode="numeric"
                    value={form.throttling.period}
                    onChange={(e) => set({ throttling: { ...form.throttling, period: e.target.value } })}
                  />
                )}
              </Field>
              <Field label="Unit">
                {(id) => (
                  <select
                    id={id}
                    value={form.throttling.unit}
                    onChange={(e) =>
                      set({
                        throttling: {
                          ...form.throttling,
                          unit: e.target.value as TypeForm['throttling']['unit'],
                        },
                      })
                    }
                  >
                    {UNITS.map((u) => (
                      <option key={u}>{u}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Check
                label="Never reset"
                checked={form.throttling.forever}
                onChange={(forever) => set({ throttling: { ...form.throttling, forever } })}
              />
              {SCOPES.map((scope) => (
                <Check
                  key={scope}
                  label={`Count per ${scope}`}
                  checked={form.throttling.scope.includes(scope)}
                  onChange={(on) =>
                    set({
                      throttling: {
                        ...form.throttling,
                        scope: on
                          ? [...form.throttling.scope, scope]
                          : form.throttling.scope.filter((s) => s !== scope),
                      },
                    })
                  }
                />
              ))}
            </div>
          )}
        </fieldset>

        <fieldset>
          <legend>Quiet hours</legend>
          <Check
            label="Hold sends during quiet hours"
            checked={form.quietHours.on}
            onChange={(on) => set({ quietHours: { ...form.quietHours, on } })}
          />
          {form.quietHours.on && (
            <div className="inline-form">
              <Field label="From">
                {(id) => (
                  <input
                    id={id}
                    type="time"
                    value={form.quietHours.start}
                    onChange={(e) => set({ quietHours: { ...form.quietHours, start: e.target.value } })}
                  />
                )}
              </Field>
              <Field label="Until">
                {(id) => (
                  <input
                    id={id}
                    type="time"
                    value={form.quietHours.end}
                    onChange={(e) => set({ quietHours: { ...form.quietHours, end: e.target.value } })}
                  />
                )}
              </Field>
              {DAYS.map((day) => (
                <Check
                  key={day}
                  label={day}
                  checked={form.quietHours.days.includes(day)}
                  onChange={(on) =>
                    set({
                      quietHours: {
                        ...form.quietHours,
                        days: on
                          ? [...form.quietHours.days, day]
                          : form.quietHours.days.filter((d) => d !== day),
                      },
                    })
                  }
                />
              ))}
              <p className="hint">No day chosen: every day. In the user's time zone, UTC without one.</p>
            </div>
          )}
        </fieldset>
      </fieldset>
      {invalid.length > 0 && (
        <div className="note note-error" role="alert">
          <ul>
            {invalid.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      <ErrorNote error={save.error ?? remove.error} />
      {admin && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            Save settings
          </button>
          {save.isSuccess && (
            <span role="status" className="muted">
              Saved.
            </span>
          )}
          {confirmDelete ? (
            <>
              <button type="button" className="danger" onClick={() => remove.mutate()}>
                Delete {notificationId}
              </button>
              <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" className="secondary" onClick={() => setConfirmDelete(true)}>
              Delete type…
            </button>
          )}
        </div>
      )}
    </form>
  );
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}
