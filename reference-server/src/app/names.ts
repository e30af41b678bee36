/** Display names operators give tenants, waitlists and keys: trimmed, 1 to 200 characters. */
import { invalid, ok, type Result, refuse } from './refusal.js';

export function cleanName(name: string, what: string): Result<string> {
  const value = name.trim();
  if (value === '' || value.length > 200)
    return refuse(invalid(`The ${what} name must be 1 to 200 characters.`));
  return ok(value);
}
