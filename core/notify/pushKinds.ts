/**
 * The kinds of Web Push the hall sends (core/notify/pushes.ts decides them): what a player picks
 * when they turn notifications on, and what the notifier checks before sending. Apart from the
 * decisions so the app's settings load these words without the rules.
 */
export const PUSH_KINDS = [
  "turn",
  "started",
  "clock",
  "stalled",
  "timeout",
  "rematch",
  "finished",
] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** The words of each kind, as a player picks them ("Notify me"). */
export const PUSH_KIND_LABEL: Record<PushKind, string> = {
  turn: "It is my turn",
  started: "A table I sit at filled and started",
  clock: "My move clock is at 20 % left",
  stalled: "A roll is stalled and I can deliver or ask for it",
  timeout: "A timeout I can claim",
  rematch: "A rematch is offered to me",
  finished: "A game of mine finished, with my result",
};

export const isPushKind = (text: unknown): text is PushKind =>
  typeof text === "string" && (PUSH_KINDS as readonly string[]).includes(text);
