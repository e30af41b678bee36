/** Importing a CSV file on the dashboard (docs/moving-a-list.md): the upload, and the check before the commit. */
import type { ImportSummary } from '../../domain/import-plan.js';
import type { Waitlist } from '../../domain/records.js';
import type { Page } from '../../web/page.js';
import { Csrf, Notice, Table } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';
import { subscribersPath } from './subscribers.js';

export const importPath = (waitlistId: string) => `/dashboard/waitlists/${waitlistId}/import`;

/** How many invalid rows the check lists; the command line lists them all. */
const SHOWN_INVALID = 20;

export function importPage(who: SignedIn, waitlist: Waitlist, error?: string): Page {
  const admin = who.operator.role === 'admin';
  return dashboardPage(
    `Import subscribers to ${waitlist.name}`,
    who,
    'waitlists',
    <>
      <p>
        <a href={subscribersPath(waitlist.id)}>Back to the subscribers</a>
      </p>
      {error ? (
        <p class="error" role="alert" id="file-error">
          {error}
        </p>
      ) : null}
      <section class="card">
        <p>
          A CSV file in UTF-8 with a header row: <code>email</code>, and optionally <code>joined_at</code>,{' '}
          <code>referred_by</code>, <code>confirmed</code> and the other columns an export writes. Rows take
          their place in the line by <code>joined_at</code>. Nothing is imported before you have seen the
          check. Files up to 10 MB; larger ones with the command line (<code>subscriber import</code>).
        </p>
        {admin ? (
          <form method="post" action={importPath(waitlist.id)} enctype="multipart/form-data" class="row">
            <Csrf token={who.csrf} />
            <div class="field">
              <label for="file">CSV file</label>
              <input
                id="file"
                name="file"
                type="file"
                accept=".csv,text/csv"
                required
                aria-invalid={error ? 'true' : undefined}
                aria-describedby={error ? 'file-error' : undefined}
              />
            </div>
            <div class="actions field">
              <button type="submit">Check the file</button>
            </div>
          </form>
        ) : (
          <Notice text="Only admins can import subscribers: ask an admin of your organisation." />
        )}
      </section>
    </>,
  );
}

export function checkedPage(who: SignedIn, waitlist: Waitlist, token: string, summary: ImportSummary): Page {
  const invalid = summary.invalid.length;
  return dashboardPage(
    `Check of the import to ${waitlist.name}`,
    who,
    'waitlists',
    <section class="card">
      <h2>What the import would do</h2>
      <ul>
        <li>{summary.imported} to import</li>
        <li>{summary.skipped_existing} already on the list, skipped</li>
        <li>{summary.skipped_repeats} repeated in the file, skipped</li>
        <li>{invalid} invalid</li>
        <li>{summary.credited} referrals credited</li>
      </ul>
      {invalid > 0 ? (
        <Table
          caption={`Invalid rows${invalid > SHOWN_INVALID ? ` (the first ${SHOWN_INVALID} of ${invalid})` : ''}`}
          columns={['Line', 'Reason']}
          rows={summary.invalid.slice(0, SHOWN_INVALID).map((r) => (
            <tr key={r.line}>
              <td>{r.line}</td>
              <td>{r.reason}</td>
            </tr>
          ))}
        />
      ) : null}
      {summary.imported > 0 ? (
        <form method="post" action={`${importPath(waitlist.id)}/commit`} class="actions">
          <Csrf token={who.csrf} />
          <input type="hidden" name="upload" value={token} />
          {invalid > 0 ? <input type="hidden" name="skip_invalid" value="on" /> : null}
          <button type="submit">
            Import {summary.imported} {summary.imported === 1 ? 'subscriber' : 'subscribers'}
            {invalid > 0 ? `, leaving out the ${invalid} invalid ${invalid === 1 ? 'row' : 'rows'}` : ''}
          </button>
        </form>
      ) : (
        <p>There is nobody to import in this file.</p>
      )}
      <p>
        <a href={importPath(waitlist.id)}>Upload another file</a>
      </p>
    </section>,
  );
}
