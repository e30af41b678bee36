/**
 * `{"items":[…]}` written a page at a time, for lists with no size limit: memory stays flat
 * however long the list, and the output is still the one JSON object operations.md promises.
 */
export async function printItems(
  stdout: (text: string) => void,
  pages: AsyncIterable<readonly unknown[]>,
): Promise<undefined> {
  stdout('{"items":[');
  let first = true;
  for await (const page of pages) {
    if (page.length === 0) continue;
    stdout(`${first ? '' : ','}${page.map((item) => JSON.stringify(item)).join(',')}`);
    first = false;
  }
  stdout(']}\n');
  return undefined;
}
