export type RulesErrorCode =
  | "InvalidDie"
  | "UnknownRuleSet"
  | "BoxOutOfRange"
  | "BoxFilled"
  | "IllegalBox"
  | "SheetFull"
  | "InvalidKeepMask";

const DEFAULT_MESSAGES: Record<RulesErrorCode, string> = {
  InvalidDie: "A roll is five dice, each showing 1 to 6.",
  UnknownRuleSet: "There is no such rule set.",
  BoxOutOfRange: "There is no such box on this score sheet.",
  BoxFilled: "That box is already filled.",
  IllegalBox: "The Joker rule does not allow that box for this roll.",
  SheetFull: "Every box on this score sheet is already filled.",
  InvalidKeepMask: "Those dice cannot be kept on this roll.",
};

/** A move or input that the rules forbid; `code` matches the contract's custom error names. */
export class RulesError extends Error {
  readonly code: RulesErrorCode;

  constructor(code: RulesErrorCode, message: string = DEFAULT_MESSAGES[code]) {
    super(message);
    this.name = "RulesError";
    this.code = code;
  }
}
