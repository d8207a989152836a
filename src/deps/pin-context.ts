import type { HubClient } from './hub-client.js';

/** What pinning a package needs: the project folder (local paths), a downloads folder (git clones), the hub. */
export interface PinContext {
  readonly projectRoot: string;
  /** Where git packages are cloned (inside the install's temporary folder). */
  readonly downloads: string;
  readonly hub: HubClient;
}
