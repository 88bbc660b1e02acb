/** Seeding a thread with an agent's files, in Node over fake-indexeddb (the cases: testing/seed-suite.ts). */
import "fake-indexeddb/auto";
import { seedSuite } from "../../testing/seed-suite.ts";

seedSuite("Node, fake-indexeddb");
