import { PHASE_TEXT, type Tx } from "@/chain/tx.ts";

/** One line under an action: what the write is doing, or why it failed, in words. */
export function TxStatus({
  tx,
  doneText,
}: {
  tx: Pick<Tx, "phase" | "error" | "busy">;
  doneText?: string;
}) {
  if (tx.error) {
    return (
      <p className="tx tx--error" role="alert">
        {tx.error.message}
      </p>
    );
  }
  if (tx.busy) return <p className="tx tx--busy">{PHASE_TEXT[tx.phase]}</p>;
  if (tx.phase === "done" && doneText) return <p className="tx tx--done">{doneText}</p>;
  return null;
}
