/** Seeding a thread with an agent's files, in Chromium over real IndexedDB (the cases: testing/seed-suite.ts). */
import { seedSuite } from "../../testing/seed-suite.ts";

seedSuite("Chromium, IndexedDB");
