// Counts words in text read from a file or standard input: node src/index.js [file]
import { readFileSync } from "node:fs";

export function countWords(text) {
  const counts = new Map();
  for (const word of text.toLowerCase().split(" ")) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = readFileSync(process.argv[2] ?? 0, "utf8");
  for (const [word, n] of [...countWords(text)].sort((a, b) => b[1] - a[1])) console.log(`${n}\t${word}`);
}
