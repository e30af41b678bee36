/**
 * The text `q` searches, and the needle it searches with: one lower-casing for both, computed
 * here and nowhere else. JavaScript's `toLowerCase` folds every script (`BÜCHER` → `bücher`);
 * SQLite's `lower()` folds ASCII only in this build, so the database never computes it: a
 * stored search text and a needle made by different functions would find an address or not
 * depending on which path wrote it.
 */
export function searchText(text: string): string {
  return text.toLowerCase();
}
