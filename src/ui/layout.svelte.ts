/**
 * The app shell's layout: the threads drawer (phones), the side panel's tab and its sheet (narrow screens), and the
 * Settings dialog with the field it opens on. `P` is the side panel's ids (the app's PANELS table).
 */
export class Layout<P extends string> {
  /** The threads drawer is open (phones). */
  drawer = $state(false);
  /** The side panel's tab. */
  panel: P;
  /** The side panel is open as a sheet (narrow screens). */
  sheet = $state(false);
  settingsOpen = $state(false);
  /** The settings field to focus when they open (a run asked for the key). */
  settingsFocus: "key" | undefined = $state();

  constructor(panel: P) {
    this.panel = $state(panel);
  }

  openSettings(focus?: "key"): void {
    this.settingsFocus = focus;
    this.settingsOpen = true;
  }

  closeSettings(): void {
    this.settingsOpen = false;
    this.settingsFocus = undefined;
  }

  /** Shows the side panel's `panel` tab, as a sheet where the panel is one. */
  show(panel: P): void {
    this.panel = panel;
    this.sheet = true;
  }

  /** Escape: closes the threads drawer, else the sheet. */
  escape(): void {
    if (this.drawer) this.drawer = false;
    else if (this.sheet) this.sheet = false;
  }
}
