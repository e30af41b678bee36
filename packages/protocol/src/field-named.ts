/**
 * The field a refused sign-up is about. A 400 `invalid_request` has no member that names it: its
 * message does, as `` `fields.<key>` `` (checkFieldValues' sentences, docs/subscribers.md#fields),
 * whichever side ran the check. A form reads the key here to show the refusal at that field.
 */
export function fieldNamed(message: string): string | undefined {
  return /`fields\.([a-z][a-z0-9_]{0,31})`/.exec(message)?.[1];
}
