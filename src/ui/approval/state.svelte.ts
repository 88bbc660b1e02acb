/**
 * The approval dialog's state: which pause is shown (the page's, or the one
 * being answered while its decisions are sent), what the user has chosen per
 * tool call, the schema checks of edited arguments, and what the dialog does
 * (send decisions, approve everything, take Enter). The pure parts (choices
 * to decisions, labels) are choices.ts.
 *
 * A pause shows until `onDecide` resolves true; on false (or a throw) it
 * stays, with a refusal that names the page's reason when there is one.
 * Choices start over when the pause's content changes, not when the same
 * pause arrives as a new object.
 */
import { tick, untrack } from "svelte";
import type { ApprovalDecision } from "../../protocol/approvals.ts";
import {
  callLabel,
  enterApproves,
  initialChoices,
  parseEditedArgs,
  toDecisions,
  type ApprovalContent,
  type Choice,
  type DecisionType,
} from "./choices.ts";

/** The dialog's props, as getters (read inside deriveds, so they stay current). */
export interface ApprovalProps {
  approval: () => ApprovalContent | null;
  onDecide: () => (decisions: ApprovalDecision[]) => Promise<boolean>;
  checkArgs: () => (schema: Record<string, unknown>, args: unknown) => Promise<string | null>;
  busy: () => boolean;
  error: () => string | undefined;
}

/** The schema check of one call's edited arguments. */
export interface EditCheck {
  problem: string | null;
  checking: boolean;
}

const UNCHECKED: EditCheck = { problem: null, checking: false };

/** The kinds of decision that open a field of their own. */
export type FieldDecision = Exclude<DecisionType, "approve">;

export class ApprovalState {
  readonly #props: ApprovalProps;
  /** The prefix of the dialog's element ids. */
  readonly id: string;

  /** The approval whose decisions are being sent (kept on screen meanwhile). */
  sending: ApprovalContent | null = $state.raw(null);
  /** The approval last answered: it stays closed even if the page passes it again. */
  #answered: ApprovalContent | null = $state.raw(null);
  /** A refused decision, for the approval with this key. */
  #refusal: { key: string; detail: string | undefined } | null = $state.raw(null);

  readonly shown: ApprovalContent | null = $derived.by(() => {
    const approval = this.#props.approval();
    return this.sending ?? (approval && approval !== this.#answered ? approval : null);
  });
  /** The shown approval's content: choices start over when it changes. */
  readonly key = $derived(this.shown ? JSON.stringify(this.shown) : "");
  choices: Choice[] = $derived.by(() => {
    void this.key;
    return untrack(() => initialChoices(this.shown));
  });
  checks: EditCheck[] = $derived.by(() => {
    void this.key;
    return untrack(() => (this.shown?.actions ?? []).map(() => UNCHECKED));
  });
  readonly single = $derived(this.shown?.actions.length === 1);
  /** Nothing can be sent: the page runs, or decisions are on their way. */
  readonly working = $derived.by(() => this.#props.busy() || this.sending !== null);
  readonly refusalText = $derived.by(() => {
    const refusal = this.#refusal;
    if (!refusal || refusal.key !== this.key) return null;
    const detail = refusal.detail ?? this.#props.error();
    return detail ? `The decision was not accepted: ${detail}` : "The decision was not accepted.";
  });
  /** Why "Send decisions" cannot go yet, or null. */
  readonly blocker = $derived.by(() => {
    const shown = this.shown;
    if (!shown) return null;
    const result = toDecisions(shown, this.choices);
    if (!result.ok) return result.error;
    for (const i of this.choices.keys()) {
      if (this.checks[i]?.checking) return `Checking the arguments of ${callLabel(shown, i)}…`;
      if (this.editBlocked(i)) return `Fix the arguments of ${callLabel(shown, i)}.`;
    }
    return null;
  });
  /** The element shown when a decision is refused (it takes the focus). */
  refusalElement: HTMLElement | undefined = $state();

  constructor(props: ApprovalProps, id: string) {
    this.#props = props;
    this.id = id;
  }

  /** The id of call `i`'s field for a decision (its control; the field's wrapper is `fieldId(…)-field`). */
  fieldId(type: FieldDecision, i: number): string {
    return `${this.id}-${type}-${i}`;
  }

  /** Edit is picked for call `i` and its arguments are not (yet) known to be good. */
  editBlocked(i: number): boolean {
    const check = this.checks[i];
    return this.choices[i]?.type === "edit" && (!check || check.checking || check.problem !== null);
  }

  update(i: number, patch: Partial<Choice>): void {
    this.choices = this.choices.map((c, j) => (j === i ? { ...c, ...patch } : c));
  }

  #setCheck(i: number, check: EditCheck): void {
    this.checks = this.checks.map((c, j) => (j === i ? check : c));
  }

  /** Parses the edited text, then asks the schema; a late answer for an older text is dropped. */
  async #validate(i: number, text: string): Promise<void> {
    const action = this.shown?.actions[i];
    if (!action) return;
    const parsed = parseEditedArgs(text);
    if (!parsed.ok || !action.schema) {
      this.#setCheck(i, { problem: parsed.ok ? null : parsed.error, checking: false });
      return;
    }
    const at = this.key;
    this.#setCheck(i, { problem: null, checking: true });
    let problem: string | null;
    try {
      problem = await this.#props.checkArgs()($state.snapshot(action.schema), parsed.value);
    } catch (e) {
      problem = `The arguments could not be checked: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (this.key !== at || this.choices[i]?.editText !== text) return;
    this.#setCheck(i, { problem, checking: false });
  }

  choose(i: number, type: DecisionType | null): void {
    this.update(i, { type });
    if (type === "edit") void this.#validate(i, this.choices[i]!.editText);
  }

  editText(i: number, text: string): void {
    this.update(i, { editText: text });
    void this.#validate(i, text);
  }

  /**
   * One call: Edit and Respond open (and close) their field; the field gets
   * the focus. Respond's answer replaces the reason's field, so the text
   * typed in one carries over to the other when that one is empty.
   */
  async toggle(type: "edit" | "respond"): Promise<void> {
    const choice = this.choices[0];
    if (!choice) return;
    const open = choice.type !== type;
    if (type === "respond") {
      if (open && !choice.answer.trim()) this.update(0, { answer: choice.reason });
      if (!open && !choice.reason.trim()) this.update(0, { reason: choice.answer });
    }
    this.choose(0, open ? type : null);
    if (!open) return;
    await tick();
    document.getElementById(this.fieldId(type, 0))?.focus();
  }

  async #send(decisions: ApprovalDecision[]): Promise<void> {
    const held = this.shown;
    if (!held || this.working) return;
    const at = this.key;
    this.sending = held;
    this.#refusal = null;
    let accepted = false;
    let detail: string | undefined;
    try {
      accepted = await this.#props.onDecide()(decisions);
    } catch (e) {
      detail = e instanceof Error ? e.message : String(e);
    }
    this.sending = null;
    if (accepted) {
      this.#answered = held;
      return;
    }
    this.#refusal = { key: at, detail };
    await tick();
    this.refusalElement?.focus();
  }

  /** Sends the choices as they are (when they make one decision per call). */
  sendChoices(choices: readonly Choice[] = this.choices): void {
    if (!this.shown) return;
    const result = toDecisions(this.shown, choices);
    if (result.ok) void this.#send(result.value);
  }

  /** One call: send it with this decision (the fields as they are). */
  decideSingle(type: DecisionType): void {
    const choice = this.choices[0];
    if (choice) this.sendChoices([{ ...choice, type }]);
  }

  approveAll(): void {
    if (this.shown) void this.#send(this.shown.actions.map((): ApprovalDecision => ({ type: "approve" })));
  }

  /** Enter outside any control approves everything, when that is allowed and nothing else is picked. */
  onKeydown(event: KeyboardEvent, root: HTMLElement | undefined): void {
    if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
    const shown = this.shown;
    if (event.defaultPrevented || !shown || this.working || !root) return;
    const dialog = root.closest("dialog");
    const target = event.target;
    if (!dialog?.open || !(target instanceof Element)) return;
    if (!(dialog.contains(target) || target === document.body)) return;
    if (target.closest("textarea, input, select, button, a[href], summary, [contenteditable]")) return;
    if (!enterApproves(shown, this.choices)) return;
    event.preventDefault();
    this.approveAll();
  }
}
