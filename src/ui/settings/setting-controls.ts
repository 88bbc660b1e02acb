/**
 * How the settings form shows each setting: the label of its control (the fieldsets take it from here, and a
 * browser test finds a control by it for every row), how the form is filled from the saved value and how the value
 * is read back for Save. A field of `Settings` without a row here does not compile (the worker's side is
 * `SETTING_SPECS` in worker/settings/settings.ts), so a setting cannot be added without a control.
 */
import { PYTHON_PACKAGES_CDN, type Settings } from "../../protocol/settings.ts";
import { APPROVAL_LABELS } from "./checks.ts";
import type { SettingsForm } from "./form.svelte.ts";
import { harnessProfileChoice } from "./model-form.ts";

interface SettingControl<K extends keyof Settings> {
  /** The accessible name of the setting's control in the dialog. */
  label: string;
  fill(form: SettingsForm, value: Settings[K]): void;
  read(form: SettingsForm): Settings[K];
}

export const SETTING_CONTROLS: { readonly [K in keyof Settings]: SettingControl<K> } = {
  // The model fields show the shown thread's model (Save switches it), else the default of new threads.
  defaultModel: { label: "Model", fill: (form, value) => form.fillModel(form.chat.view?.model ?? value), read: (form) => form.choice },
  sandbox: { label: "Sandbox", fill: (form, value) => (form.sandbox = value), read: (form) => form.sandbox },
  approveExecute: {
    label: APPROVAL_LABELS.approveExecute,
    fill: (form, value) => (form.approveExecute = value),
    read: (form) => form.approveExecute,
  },
  approveWrites: {
    label: APPROVAL_LABELS.approveWrites,
    fill: (form, value) => (form.approveWrites = value),
    read: (form) => form.approveWrites,
  },
  toolProfile: { label: "Tool descriptions", fill: (form, value) => (form.toolProfile = value), read: (form) => form.toolProfile },
  harnessProfile: {
    label: "Harness profile",
    fill: (form, value) => (form.harnessProfile = harnessProfileChoice(value)),
    read: (form) => form.harnessProfile,
  },
  // Off is "", on is the source's URL (Pyodide's CDN unless the person types another).
  pythonPackages: {
    label: "Python packages (numpy, pandas, matplotlib…): download what a program imports from a package source",
    fill: (form, value) => {
      form.pythonPackages = Boolean(value);
      form.packageSource = value || PYTHON_PACKAGES_CDN;
    },
    read: (form) => (form.pythonPackages ? form.packageSource.trim() : ""),
  },
};

const SETTING_KEYS = Object.keys(SETTING_CONTROLS) as ReadonlyArray<keyof Settings>;

/** Fills `form` from saved settings, one control per setting. */
export function fillSettings(form: SettingsForm, settings: Settings): void {
  for (const key of SETTING_KEYS) fillOne(form, settings, key);
}

function fillOne<K extends keyof Settings>(form: SettingsForm, settings: Settings, key: K): void {
  SETTING_CONTROLS[key].fill(form, settings[key]);
}

/** The settings the form describes, one control per setting. */
export function readSettings(form: SettingsForm): Settings {
  const out: Partial<Record<keyof Settings, unknown>> = {};
  for (const key of SETTING_KEYS) out[key] = SETTING_CONTROLS[key].read(form);
  return out as Settings;
}
