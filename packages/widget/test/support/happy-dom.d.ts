/** happy-dom's test API on its window (vitest's happy-dom environment). */
interface Window {
  happyDOM: { setURL(url: string): void };
}
