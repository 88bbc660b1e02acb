/** Playwright global teardown: closes the provider servers e2e/global-setup.ts started. */
import { stopProviderServers } from "./global-setup.ts";

/** Closes both scripted provider servers. */
export default async function globalTeardown(): Promise<void> {
  await stopProviderServers();
}
